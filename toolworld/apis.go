package toolworld

import (
	"fmt"
	"math"
)

// Descriptions of parameters shared by many APIs.
const (
	dLat  = "Latitude in decimal degrees."
	dLon  = "Longitude in decimal degrees."
	dCity = "City name, e.g. Paris."
)

// definitions is the API table. Outputs that feed another API carry exactly that API's
// input name: geo.Geocode gives latitude and longitude, which weather.Current takes.
func definitions() []def {
	return []def{
		// Geolocation.
		{name: "geo.Geocode", provider: "geo", domain: "geolocation", method: "GET", path: "/geo/geocode",
			desc: "Finds the coordinates of a city by name.",
			in:   []inp{q("city", "string", dCity), opt("country", "string", "ISO country code to disambiguate.")},
			out: []outp{
				o("city", "string", "City name as given.", echo("city")),
				o("country", "string", "ISO 3166 country code.", cityField("city", "country", 0)),
				o("latitude", "number", dLat, cityField("city", "latitude", 0)),
				o("longitude", "number", dLon, cityField("city", "longitude", 0)),
				o("timezone", "string", "IANA time zone.", cityField("city", "timezone", 0)),
				o("population", "integer", "Population of the city.", cityField("city", "population", 0)),
			}},
		{name: "opengeo.Locate", provider: "opengeo", domain: "geolocation", method: "GET", path: "/opengeo/locate",
			desc: "Locates a city: latitude and longitude of a place name.",
			in:   []inp{q("city_name", "string", dCity)},
			out: []outp{
				o("city_name", "string", "City name as given.", echo("city_name")),
				o("lat", "number", dLat, cityField("city_name", "latitude", 0)),
				o("lon", "number", dLon, cityField("city_name", "longitude", 0)),
				o("country_code", "string", "ISO 3166 country code.", cityField("city_name", "country", 0)),
			}},
		{name: "geo.ReverseGeocode", provider: "geo", domain: "geolocation", method: "GET", path: "/geo/reverse",
			desc: "Finds the city and address at a point.",
			in:   []inp{q("latitude", "number", dLat), q("longitude", "number", dLon)},
			out: []outp{
				o("city", "string", "Nearest city.", fn(func(c *genCtx) any { return placeName(c) })),
				o("address", "string", "Street address.", fn(func(c *genCtx) any {
					return fmt.Sprintf("%d %s", 1+c.rng.IntN(200), []string{"Main Street", "Station Road", "Market Square", "Park Avenue", "River Lane"}[c.rng.IntN(5)])
				})),
				o("postcode", "string", "Postal code.", fn(func(c *genCtx) any { return fmt.Sprintf("%05d", c.rng.IntN(100000)) })),
			}},
		{name: "opengeo.Reverse", provider: "opengeo", domain: "geolocation", method: "GET", path: "/opengeo/reverse",
			desc: "Names the place at a latitude and longitude.",
			in:   []inp{q("lat", "number", dLat), q("lon", "number", dLon)},
			out: []outp{
				o("city_name", "string", "Nearest city.", fn(func(c *genCtx) any { return placeName(c) })),
				o("display_name", "string", "Full place name.", fn(func(c *genCtx) any { return placeName(c) + " (centre)" })),
			}},
		{name: "geo.Timezone", provider: "geo", domain: "geolocation", method: "GET", path: "/geo/timezone",
			desc: "Gives the time zone and UTC offset at a point.",
			in:   []inp{q("latitude", "number", dLat), q("longitude", "number", dLon)},
			out: []outp{
				o("timezone", "string", "IANA time zone.", fn(func(c *genCtx) any {
					lat, lon := c.point()
					if n := nearestCity(lat, lon); n != "" {
						return cities[n].tz
					}
					return fmt.Sprintf("Etc/GMT%+d", -int(math.Round(lon/15)))
				})),
				o("utc_offset_hours", "number", "Offset from UTC in hours.", fn(func(c *genCtx) any {
					lat, lon := c.point()
					if n := nearestCity(lat, lon); n != "" {
						return cities[n].utcOffsetHour
					}
					return math.Round(lon / 15)
				})),
			}},
		{name: "geo.Elevation", provider: "geo", domain: "geolocation", method: "GET", path: "/geo/elevation",
			desc: "Gives the ground elevation at a point.",
			in:   []inp{q("latitude", "number", dLat), q("longitude", "number", dLon)},
			out:  []outp{o("elevation_m", "number", "Elevation above sea level in metres.", atPoint("elevation", num(0, 900, 0)))}},

		// Weather.
		{name: "weather.Current", provider: "weather", domain: "weather", method: "GET", path: "/weather/current",
			desc: "Current weather at a point: temperature, humidity, wind and conditions.",
			in:   []inp{q("latitude", "number", dLat), q("longitude", "number", dLon), opt("units", "string", "metric (default) or imperial.")},
			out: []outp{
				o("temperature", "number", "Air temperature in °C (°F with units=imperial).", fn(func(c *genCtx) any {
					t := temperature(0)(c).(float64)
					if c.in["units"] == "imperial" {
						return round(t*9/5+32, 1)
					}
					return t
				})),
				o("humidity", "integer", "Relative humidity in percent.", atPoint("humidity", intn(25, 95))),
				o("wind_speed", "number", "Wind speed in km/h.", atPoint("wind", num(0, 45, 1))),
				o("condition", "string", "Sky condition.", atPoint("condition", pick("clear", "partly_cloudy", "cloudy", "rain", "thunderstorm", "fog"))),
				o("units", "string", "Units of the figures.", echoOr("units", "metric")),
			}},
		{name: "weather.Forecast", provider: "weather", domain: "weather", method: "GET", path: "/weather/forecast",
			desc: "Daily weather forecast at a point, for the day given by days ahead (1 by default).",
			in:   []inp{q("latitude", "number", dLat), q("longitude", "number", dLon), opt("days", "integer", "Days ahead, 1 to 7.")},
			out: []outp{
				o("forecast_date", "string", "Day of the forecast.", fn(func(c *genCtx) any { return fmt.Sprintf("2025-06-%02d", 1+min(c.intIn("days", 1), 29)) })),
				o("temperature_max", "number", "Highest temperature in °C.", temperature(3)),
				o("temperature_min", "number", "Lowest temperature in °C.", temperature(-7)),
				o("precipitation_probability", "integer", "Chance of rain in percent.", atPoint("rain", intn(0, 100))),
				o("condition", "string", "Expected sky condition.", atPoint("condition", pick("clear", "partly_cloudy", "cloudy", "rain", "thunderstorm", "fog"))),
			}},
		{name: "skycast.Now", provider: "skycast", domain: "weather", method: "GET", path: "/skycast/now",
			desc: "Weather now at a latitude and longitude.",
			in:   []inp{q("lat", "number", dLat), q("lon", "number", dLon)},
			out: []outp{
				o("temp_c", "number", "Air temperature in °C.", temperature(0)),
				o("relative_humidity", "integer", "Relative humidity in percent.", atPoint("humidity", intn(25, 95))),
				o("wind_kph", "number", "Wind speed in km/h.", atPoint("wind", num(0, 45, 1))),
				o("summary", "string", "Sky condition.", atPoint("condition", pick("clear", "partly_cloudy", "cloudy", "rain", "thunderstorm", "fog"))),
			}},
		{name: "skycast.Daily", provider: "skycast", domain: "weather", method: "GET", path: "/skycast/daily",
			desc: "Tomorrow's high, low and rain chance at a latitude and longitude.",
			in:   []inp{q("lat", "number", dLat), q("lon", "number", dLon)},
			out: []outp{
				o("high_c", "number", "Highest temperature in °C.", temperature(3)),
				o("low_c", "number", "Lowest temperature in °C.", temperature(-7)),
				o("rain_chance", "integer", "Chance of rain in percent.", atPoint("rain", intn(0, 100))),
			}},
		{name: "weather.Alerts", provider: "weather", domain: "weather", method: "GET", path: "/weather/alerts",
			desc: "Active severe-weather alerts at a point.",
			in:   []inp{q("latitude", "number", dLat), q("longitude", "number", dLon)},
			out: []outp{
				o("alert_count", "integer", "Number of active alerts.", atPoint("alerts", intn(0, 2))),
				o("severity", "string", "Highest severity: none, minor, moderate or severe.", fn(func(c *genCtx) any {
					if c.out["alert_count"] == 0 {
						return "none"
					}
					return pick("minor", "moderate", "severe")(c)
				})),
			}},
		{name: "weather.Sun", provider: "weather", domain: "weather", method: "GET", path: "/weather/sun",
			desc: "Sunrise, sunset and UV index at a point.",
			in:   []inp{q("latitude", "number", dLat), q("longitude", "number", dLon)},
			out: []outp{
				o("sunrise", "string", "Local sunrise time.", fn(func(c *genCtx) any { return fmt.Sprintf("0%d:%02d", 4+c.rng.IntN(3), c.rng.IntN(60)) })),
				o("sunset", "string", "Local sunset time.", fn(func(c *genCtx) any { return fmt.Sprintf("%d:%02d", 19+c.rng.IntN(3), c.rng.IntN(60)) })),
				o("uv_index", "integer", "UV index, 0 to 11.", atPoint("uv", intn(0, 11))),
			}},

		// Air quality.
		{name: "airq.Current", provider: "airq", domain: "air_quality", method: "GET", path: "/airq/current",
			desc: "Current air quality at a point: index, particulates and the dominant pollutant.",
			in:   []inp{q("latitude", "number", dLat), q("longitude", "number", dLon)},
			out: []outp{
				o("aqi", "integer", "US air quality index.", aqi),
				o("category", "string", "Category of the index.", aqiCategory("aqi")),
				o("pm25", "number", "PM2.5 in µg/m³.", atPoint("pm25", num(2, 80, 1))),
				o("pm10", "number", "PM10 in µg/m³.", atPoint("pm10", num(5, 120, 1))),
				o("dominant_pollutant", "string", "Pollutant that drives the index.", atPoint("dominant", pick("pm25", "pm10", "o3", "no2"))),
			}},
		{name: "airq.Forecast", provider: "airq", domain: "air_quality", method: "GET", path: "/airq/forecast",
			desc: "Tomorrow's air quality index at a point.",
			in:   []inp{q("latitude", "number", dLat), q("longitude", "number", dLon)},
			out: []outp{
				o("aqi_tomorrow", "integer", "Forecast US air quality index.", atPoint("aqi_tomorrow", intn(12, 180))),
				o("category_tomorrow", "string", "Category of the forecast index.", aqiCategory("aqi_tomorrow")),
			}},
		{name: "breezo.AirQuality", provider: "breezo", domain: "air_quality", method: "GET", path: "/breezo/air",
			desc: "Air quality index and health advice at a latitude and longitude.",
			in:   []inp{q("lat", "number", dLat), q("lon", "number", dLon)},
			out: []outp{
				o("air_quality_index", "integer", "US air quality index.", aqi),
				o("pm2_5", "number", "PM2.5 in µg/m³.", atPoint("pm25", num(2, 80, 1))),
				o("health_advice", "string", "Advice for outdoor activity.", fn(func(c *genCtx) any {
					if n, _ := c.out["air_quality_index"].(int); n > 100 {
						return "Sensitive groups should limit outdoor exertion."
					}
					return "Air quality is fine for outdoor activity."
				})),
			}},
		{name: "airq.Pollen", provider: "airq", domain: "air_quality", method: "GET", path: "/airq/pollen",
			desc: "Pollen levels at a point.",
			in:   []inp{q("latitude", "number", dLat), q("longitude", "number", dLon)},
			out: []outp{
				o("pollen_level", "string", "Overall pollen level.", atPoint("pollen", pick("low", "moderate", "high", "very_high"))),
				o("grass_pollen", "integer", "Grass pollen grains per m³.", atPoint("grass", intn(0, 300))),
				o("tree_pollen", "integer", "Tree pollen grains per m³.", atPoint("tree", intn(0, 300))),
			}},

		// Restaurants.
		{name: "dine.SearchNearby", provider: "dine", domain: "restaurants", method: "GET", path: "/dine/restaurants/nearby",
			desc: "Finds the best-rated restaurant near a point, optionally of a cuisine.",
			in: []inp{q("latitude", "number", dLat), q("longitude", "number", dLon),
				opt("cuisine", "string", "Cuisine, e.g. italian."), opt("radius_m", "integer", "Search radius in metres.")},
			out: []outp{
				o("restaurant_id", "string", "Id of the best match.", hashID("rst-", "latitude", "longitude", "cuisine")),
				o("name", "string", "Restaurant name.", keyed("restaurant_id", restaurantName)),
				o("cuisine", "string", "Cuisine.", fn(func(c *genCtx) any { return echoOr("cuisine", cuisineOf(c))(c) })),
				o("rating", "number", "Average rating out of 5.", keyed("restaurant_id", num(3.2, 4.9, 1))),
				o("price_level", "integer", "Price level, 1 to 4.", keyed("restaurant_id", intn(1, 4))),
				o("distance_m", "integer", "Distance from the point in metres.", intn(50, 1500)),
				o("result_count", "integer", "Restaurants found.", intn(3, 40)),
			}},
		{name: "dine.RestaurantDetails", provider: "dine", domain: "restaurants", method: "GET", path: "/dine/restaurants/{restaurant_id}",
			desc: "Details of a restaurant: address, phone, opening hours.",
			in:   []inp{path("restaurant_id", "Restaurant id from dine.SearchNearby.")},
			out: []outp{
				o("name", "string", "Restaurant name.", keyed("restaurant_id", restaurantName)),
				o("rating", "number", "Average rating out of 5.", keyed("restaurant_id", num(3.2, 4.9, 1))),
				o("price_level", "integer", "Price level, 1 to 4.", keyed("restaurant_id", intn(1, 4))),
				o("phone", "string", "Phone number.", fn(func(c *genCtx) any { return fmt.Sprintf("+1-555-%04d", c.rng.IntN(10000)) })),
				o("opening_hours", "string", "Opening hours.", pick("11:00-22:00", "12:00-23:00", "17:00-23:30", "08:00-20:00")),
			}},
		{name: "dine.Reviews", provider: "dine", domain: "restaurants", method: "GET", path: "/dine/restaurants/{restaurant_id}/reviews",
			desc: "Review summary of a restaurant.",
			in:   []inp{path("restaurant_id", "Restaurant id from dine.SearchNearby.")},
			out: []outp{
				o("review_count", "integer", "Number of reviews.", intn(5, 2500)),
				o("rating", "number", "Average rating out of 5.", keyed("restaurant_id", num(3.2, 4.9, 1))),
				o("latest_review", "string", "Most recent review.", pick("Excellent food and friendly staff.", "Good value, a bit noisy.", "Slow service but great dessert.", "Would come back.")),
			}},
		{name: "dine.Reserve", provider: "dine", domain: "restaurants", method: "POST", path: "/dine/reservations",
			desc: "Books a table at a restaurant.",
			in: []inp{body("restaurant_id", "string", "Restaurant id from dine.SearchNearby."), body("party_size", "integer", "Number of guests."),
				body("date", "string", "Day, YYYY-MM-DD."), body("time", "string", "Time, HH:MM.")},
			out: []outp{
				o("reservation_id", "string", "Id of the reservation.", hashID("rsv-", "restaurant_id", "party_size", "date", "time")),
				o("status", "string", "confirmed or waitlisted.", fn(func(c *genCtx) any {
					if c.intIn("party_size", 2) > 8 {
						return "waitlisted"
					}
					return "confirmed"
				})),
				o("date", "string", "Day of the reservation.", echo("date")),
				o("time", "string", "Time of the reservation.", echo("time")),
			}},
		{name: "eatly.FindPlaces", provider: "eatly", domain: "restaurants", method: "GET", path: "/eatly/places",
			desc: "Finds a place to eat near a latitude and longitude.",
			in:   []inp{q("lat", "number", dLat), q("lon", "number", dLon), opt("food_type", "string", "Kind of food, e.g. sushi.")},
			out: []outp{
				o("place_id", "string", "Id of the place.", hashID("plc-", "lat", "lon", "food_type")),
				o("place_name", "string", "Name of the place.", keyed("place_id", restaurantName)),
				o("stars", "number", "Rating out of 5.", keyed("place_id", num(3, 5, 1))),
				o("price_range", "string", "Price range.", keyed("place_id", pick("$", "$$", "$$$", "$$$$"))),
			}},
		{name: "eatly.Menu", provider: "eatly", domain: "restaurants", method: "GET", path: "/eatly/places/{place_id}/menu",
			desc: "Menu summary of a place.",
			in:   []inp{path("place_id", "Place id from eatly.FindPlaces.")},
			out: []outp{
				o("dish_count", "integer", "Dishes on the menu.", intn(8, 80)),
				o("signature_dish", "string", "The dish the place is known for.", pick("truffle risotto", "ramen", "margherita pizza", "beef bourguignon", "pad thai", "paella")),
				o("average_price", "number", "Average dish price in EUR.", num(8, 45, 2)),
			}},

		// Real estate.
		{name: "homes.Listings", provider: "homes", domain: "real_estate", method: "GET", path: "/homes/listings",
			desc: "Finds the best homes-for-sale listing near a point.",
			in: []inp{q("latitude", "number", dLat), q("longitude", "number", dLon),
				opt("min_bedrooms", "integer", "Fewest bedrooms."), opt("max_price", "number", "Highest price in EUR.")},
			out: []outp{
				o("listing_id", "string", "Id of the best listing.", hashID("lst-", "latitude", "longitude", "min_bedrooms", "max_price")),
				o("price", "number", "Asking price in EUR.", listingPrice),
				o("bedrooms", "integer", "Bedrooms.", listingBedrooms),
				o("area_sqm", "number", "Floor area in m².", keyed("listing_id", num(35, 220, 0))),
				o("result_count", "integer", "Listings found.", intn(1, 60)),
			}},
		{name: "homes.ListingDetails", provider: "homes", domain: "real_estate", method: "GET", path: "/homes/listings/{listing_id}",
			desc: "Details of a listing.",
			in:   []inp{path("listing_id", "Listing id from homes.Listings.")},
			out: []outp{
				o("price", "number", "Asking price in EUR.", listingPrice),
				o("bedrooms", "integer", "Bedrooms.", listingBedrooms),
				o("year_built", "integer", "Year of construction.", keyed("listing_id", intn(1890, 2024))),
				o("energy_rating", "string", "Energy label.", keyed("listing_id", pick("A", "B", "C", "D", "E", "F"))),
				o("agent_id", "string", "Id of the listing agent.", hashID("agt-", "listing_id")),
			}},
		{name: "homes.Valuation", provider: "homes", domain: "real_estate", method: "GET", path: "/homes/valuation",
			desc: "Estimated market value of a listing.",
			in:   []inp{q("listing_id", "string", "Listing id from homes.Listings.")},
			out: []outp{
				o("estimated_value", "number", "Estimated value in EUR.", fn(func(c *genCtx) any {
					p := listingPrice(c).(float64)
					return round(p*(0.9+c.rng.Float64()*0.2), -3)
				})),
				o("confidence", "number", "Confidence of the estimate, 0 to 1.", num(0.6, 0.95, 2)),
			}},
		{name: "homes.MarketStats", provider: "homes", domain: "real_estate", method: "GET", path: "/homes/market",
			desc: "Housing market statistics of a city.",
			in:   []inp{q("city", "string", dCity)},
			out: []outp{
				o("median_price", "number", "Median sale price in EUR.", num(150000, 1200000, -3)),
				o("median_rent", "number", "Median monthly rent in EUR.", num(600, 4000, 0)),
				o("days_on_market", "integer", "Median days to sell.", intn(10, 120)),
				o("yoy_change_pct", "number", "Price change over a year in percent.", num(-8, 12, 1)),
			}},
		{name: "nestfind.Search", provider: "nestfind", domain: "real_estate", method: "GET", path: "/nestfind/search",
			desc: "Searches properties for sale near a latitude and longitude.",
			in:   []inp{q("lat", "number", dLat), q("lon", "number", dLon), opt("beds", "integer", "Fewest bedrooms.")},
			out: []outp{
				o("property_id", "string", "Id of the best property.", hashID("nst-", "lat", "lon", "beds")),
				o("asking_price", "number", "Asking price in EUR.", keyed("property_id", num(120000, 1500000, -3))),
				o("beds", "integer", "Bedrooms.", fn(func(c *genCtx) any { return c.intIn("beds", 1) + c.rng.IntN(3) })),
			}},
		{name: "homes.Agent", provider: "homes", domain: "real_estate", method: "GET", path: "/homes/agents/{agent_id}",
			desc: "Contact details of an estate agent.",
			in:   []inp{path("agent_id", "Agent id from homes.ListingDetails.")},
			out: []outp{
				o("agent_name", "string", "Agent's name.", keyed("agent_id", personName)),
				o("agency", "string", "Agency.", keyed("agent_id", pick("Urban Nest Realty", "Keystone Homes", "Blue Door Estates", "Harbor Property Group"))),
				o("phone", "string", "Phone number.", keyed("agent_id", fn(func(c *genCtx) any { return fmt.Sprintf("+1-555-%04d", c.rng.IntN(10000)) }))),
			}},

		// Hotels.
		{name: "stay.SearchHotels", provider: "stay", domain: "hotels", method: "GET", path: "/stay/hotels/search",
			desc: "Finds the best hotel in a city.",
			in: []inp{q("city", "string", dCity), opt("check_in", "string", "Arrival day, YYYY-MM-DD."),
				opt("nights", "integer", "Number of nights.")},
			out: []outp{
				o("hotel_id", "string", "Id of the best hotel.", slugID("htl-", "city")),
				o("hotel_name", "string", "Hotel name.", hotelName("hotel_id")),
				o("stars", "integer", "Star rating, 2 to 5.", keyed("hotel_id", intn(2, 5))),
				o("price_per_night", "number", "Price of a night in EUR.", hotelPricePerNight),
				o("result_count", "integer", "Hotels found.", intn(4, 120)),
			}},
		{name: "stay.HotelDetails", provider: "stay", domain: "hotels", method: "GET", path: "/stay/hotels/{hotel_id}",
			desc: "Details of a hotel, with its coordinates.",
			in:   []inp{path("hotel_id", "Hotel id from stay.SearchHotels.")},
			out: []outp{
				o("hotel_name", "string", "Hotel name.", hotelName("hotel_id")),
				o("stars", "integer", "Star rating, 2 to 5.", keyed("hotel_id", intn(2, 5))),
				o("latitude", "number", dLat, cityField("hotel_id", "latitude", 0.03)),
				o("longitude", "number", dLon, cityField("hotel_id", "longitude", 0.03)),
				o("amenities", "string", "Comma-separated amenities.", keyed("hotel_id", pick("wifi,breakfast", "wifi,pool,gym", "wifi,spa,restaurant", "wifi,parking"))),
			}},
		{name: "stay.HotelPrices", provider: "stay", domain: "hotels", method: "GET", path: "/stay/hotels/{hotel_id}/prices",
			desc: "Price of a stay at a hotel.",
			in: []inp{path("hotel_id", "Hotel id from stay.SearchHotels."), q("check_in", "string", "Arrival day, YYYY-MM-DD."),
				opt("nights", "integer", "Number of nights (1 by default).")},
			out: []outp{
				o("price_per_night", "number", "Price of a night in EUR.", hotelPricePerNight),
				o("total_price", "number", "Price of the stay in EUR.", fn(func(c *genCtx) any {
					return round(c.floatOut("price_per_night")*float64(max(c.intIn("nights", 1), 1)), 2)
				})),
				o("currency", "string", "Currency of the prices.", constant("EUR")),
				o("free_cancellation", "boolean", "Whether the rate can be cancelled free.", fn(func(c *genCtx) any { return c.rng.IntN(2) == 0 })),
			}},
		{name: "stay.Book", provider: "stay", domain: "hotels", method: "POST", path: "/stay/bookings",
			desc: "Books a hotel stay.",
			in: []inp{body("hotel_id", "string", "Hotel id from stay.SearchHotels."), body("check_in", "string", "Arrival day, YYYY-MM-DD."),
				body("nights", "integer", "Number of nights."), body("guest_name", "string", "Name of the guest.")},
			out: []outp{
				o("booking_id", "string", "Id of the booking.", hashID("bkg-", "hotel_id", "check_in", "nights", "guest_name")),
				o("status", "string", "Booking status.", constant("confirmed")),
				o("total_price", "number", "Price of the stay in EUR.", fn(func(c *genCtx) any {
					return round(hotelPricePerNight(c).(float64)*float64(max(c.intIn("nights", 1), 1)), 2)
				})),
			}},
		{name: "stay.HotelReviews", provider: "stay", domain: "hotels", method: "GET", path: "/stay/hotels/{hotel_id}/reviews",
			desc: "Guest review summary of a hotel.",
			in:   []inp{path("hotel_id", "Hotel id from stay.SearchHotels.")},
			out: []outp{
				o("review_score", "number", "Average score out of 10.", keyed("hotel_id", num(6.5, 9.6, 1))),
				o("review_count", "integer", "Number of reviews.", keyed("hotel_id", intn(20, 5000))),
			}},
		{name: "lodgr.FindHotels", provider: "lodgr", domain: "hotels", method: "GET", path: "/lodgr/hotels",
			desc: "Finds a hotel in a city by city name.",
			in:   []inp{q("city_name", "string", dCity)},
			out: []outp{
				o("property_code", "string", "Code of the hotel.", slugID("lod-", "city_name")),
				o("property_name", "string", "Hotel name.", hotelName("property_code")),
				o("nightly_rate", "number", "Price of a night in EUR.", keyed("property_code", num(55, 450, 0))),
				o("rating", "number", "Guest rating out of 5.", keyed("property_code", num(3, 5, 1))),
			}},

		// Sports.
		{name: "sports.SearchTeam", provider: "sports", domain: "sports", method: "GET", path: "/sports/teams/search",
			desc: "Finds a football team by name.",
			in:   []inp{q("team_name", "string", "Team name, e.g. Arsenal.")},
			out: []outp{
				o("team_id", "string", "Id of the team.", slugID("team-", "team_name")),
				o("team_name", "string", "Team name as given.", echo("team_name")),
				o("league", "string", "League of the team.", keyed("team_id", pick(leagues...))),
				o("stadium", "string", "Home stadium.", fn(func(c *genCtx) any { return title(slug(c.in["team_name"])) + " Stadium" })),
			}},
		{name: "sports.TeamFixtures", provider: "sports", domain: "sports", method: "GET", path: "/sports/teams/{team_id}/fixtures",
			desc: "Next fixture of a team.",
			in:   []inp{path("team_id", "Team id from sports.SearchTeam.")},
			out: []outp{
				o("match_id", "string", "Id of the match.", nextMatchID("team_id")),
				o("opponent", "string", "Opposing team.", ofClub("rival", "team_id", pick(teams...))),
				o("match_date", "string", "Day of the match.", ofClub("kickoff", "team_id", date(90))),
				o("venue", "string", "home or away.", pick("home", "away")),
			}},
		{name: "sports.MatchStats", provider: "sports", domain: "sports", method: "GET", path: "/sports/matches/{match_id}/stats",
			desc: "Statistics of a match.",
			in:   []inp{path("match_id", "Match id from sports.TeamFixtures.")},
			out: []outp{
				o("home_score", "integer", "Goals of the home team.", intn(0, 4)),
				o("away_score", "integer", "Goals of the away team.", intn(0, 3)),
				o("possession_home", "integer", "Home possession in percent.", intn(35, 70)),
				o("shots_home", "integer", "Shots of the home team.", intn(3, 25)),
				o("shots_away", "integer", "Shots of the away team.", intn(2, 20)),
			}},
		{name: "sports.Standings", provider: "sports", domain: "sports", method: "GET", path: "/sports/standings",
			desc: "Leader of a league table.",
			in:   []inp{q("league", "string", "League name, e.g. Premier League.")},
			out: []outp{
				o("leader_team_name", "string", "Name of the leading team.", pick(teams...)),
				o("leader_team_id", "string", "Id of the leading team.", slugID("team-", "leader_team_name")),
				o("leader_points", "integer", "Points of the leader.", intn(40, 95)),
				o("team_count", "integer", "Teams in the league.", pick2(18, 20)),
			}},
		{name: "sports.TeamPlayers", provider: "sports", domain: "sports", method: "GET", path: "/sports/teams/{team_id}/players",
			desc: "Squad summary of a team.",
			in:   []inp{path("team_id", "Team id from sports.SearchTeam.")},
			out: []outp{
				o("player_count", "integer", "Players in the squad.", intn(22, 32)),
				o("top_scorer", "string", "Top scorer of the season.", personName),
				o("top_scorer_goals", "integer", "Goals of the top scorer.", intn(6, 30)),
			}},
		{name: "scoreline.FindClub", provider: "scoreline", domain: "sports", method: "GET", path: "/scoreline/clubs",
			desc: "Looks up a club by name.",
			in:   []inp{q("club_name", "string", "Club name, e.g. Arsenal.")},
			out: []outp{
				o("club_id", "string", "Id of the club.", slugID("club-", "club_name")),
				o("league_name", "string", "League of the club.", keyed("club_id", pick(leagues...))),
			}},
		{name: "scoreline.ClubMatches", provider: "scoreline", domain: "sports", method: "GET", path: "/scoreline/clubs/{club_id}/matches",
			desc: "Next match of a club.",
			in:   []inp{path("club_id", "Club id from scoreline.FindClub.")},
			out: []outp{
				o("game_id", "string", "Id of the game.", nextMatchID("club_id")),
				o("rival", "string", "Opposing club.", ofClub("rival", "club_id", pick(teams...))),
				o("kickoff", "string", "Day of the game.", ofClub("kickoff", "club_id", date(90))),
			}},
	}
}

var (
	leagues = []string{"Premier League", "La Liga", "Serie A", "Bundesliga", "Ligue 1"}
	teams   = []string{"Arsenal", "Chelsea", "Liverpool", "Real Madrid", "Barcelona", "Juventus", "Inter", "Bayern Munich", "Borussia Dortmund", "Paris Saint-Germain"}
)

func pick2(a, b int) gen {
	return func(c *genCtx) any {
		if c.rng.IntN(2) == 0 {
			return a
		}
		return b
	}
}

func restaurantName(c *genCtx) any {
	first := []string{"The Golden", "Little", "Casa", "Blue", "Old", "Green", "Le Petit", "Sakura"}
	second := []string{"Fork", "Olive", "Lantern", "Garden", "Kitchen", "Table", "Bistro", "Grill"}
	return first[c.rng.IntN(len(first))] + " " + second[c.rng.IntN(len(second))]
}

func personName(c *genCtx) any {
	first := []string{"Alex", "Maria", "Jonas", "Aiko", "Lucas", "Sofia", "Omar", "Emma"}
	last := []string{"Martin", "Garcia", "Schmidt", "Tanaka", "Rossi", "Dubois", "Khan", "Silva"}
	return first[c.rng.IntN(len(first))] + " " + last[c.rng.IntN(len(last))]
}

// cuisineOf picks a cuisine when the search named none.
func cuisineOf(c *genCtx) string {
	return []string{"italian", "french", "japanese", "indian", "mexican", "thai"}[c.rng.IntN(6)]
}

// hotelName names the hotel of an id made by slugID: "Paris Grand Hotel".
func hotelName(src string) gen {
	return keyed(src, func(c *genCtx) any {
		return title(idSlug(c.value(src))) + " " + []string{"Grand Hotel", "Plaza", "Inn", "Suites", "Boutique Hotel", "Palace"}[c.rng.IntN(6)]
	})
}

var (
	listingPrice       = keyedAs("price", "listing_id", num(150000, 1400000, -3))
	listingBedrooms    = keyedAs("bedrooms", "listing_id", intn(1, 5))
	hotelPricePerNight = keyedAs("price_per_night", "hotel_id", num(60, 480, 0))
)
