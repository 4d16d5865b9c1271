package subgoal

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clauses returns the texts of the clause goals that state a task (not Tentative), checking on
// the way that the whole-request goal comes last.
func clauses(t *testing.T, request string) []string {
	t.Helper()
	goals := Split(request)
	require.GreaterOrEqual(t, len(goals), 2, "Split(%q)", request)
	whole := goals[len(goals)-1]
	require.True(t, whole.Whole, "the last goal of Split(%q) is the whole request", request)
	require.Equal(t, strings.TrimSpace(request), whole.Text)
	var texts []string
	for _, g := range goals[:len(goals)-1] {
		require.False(t, g.Whole)
		if !g.Tentative {
			texts = append(texts, g.Text)
		}
	}
	return texts
}

// tentative returns the texts of the Tentative clause goals of Split(request).
func tentative(request string) []string {
	var texts []string
	for _, g := range Split(request) {
		if g.Tentative {
			texts = append(texts, g.Text)
		}
	}
	return texts
}

func TestSplitTentative(t *testing.T) {
	tests := []struct {
		name, request string
		want          []string
	}{
		{"a context sentence may ask for something", "I'm going to Rome on 3 March. Find me a hotel near the Vatican for 2 nights.",
			[]string{"I'm going to Rome on 3 March"}},
		{"a noun phrase beside a request", "Get the weather in Paris. Their list needs to grow.", []string{"Their list needs to grow"}},
		{"a motive after a want", "I want to gather inspiration and plan a memorable event. Find party venues in Austin for 50 guests.",
			[]string{"gather inspiration"}},
		{"information after a want", "Get the weather in Paris. I need to gather information about the participating countries.",
			[]string{"gather information about the participating countries"}},
		{"a verb without an object's determiner", "Query meeting of John and send email reminder to john@example.com.",
			[]string{"Query meeting of John"}},
		{"a statement of a value is none", "Update John's address. Password is 123456.", nil},
		{"a clause with its verb is none", "Find a hotel in Rome and book a table there.", nil},
		{"an introduction is none", "I need two things: find the stock price of AAPL and convert $200 to EUR.", nil},
		{"without a task no clause is tentative", "I'm bored.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tentative(tt.request), "Split(%q)", tt.request)
		})
	}
}

// clauseGoals returns the clause goals of Split(request).
func clauseGoals(t *testing.T, request string) []Goal {
	t.Helper()
	goals := Split(request)
	require.GreaterOrEqual(t, len(goals), 2, "Split(%q)", request)
	return goals[:len(goals)-1]
}

func TestSplitClauses(t *testing.T) {
	tests := []struct {
		name    string
		request string
		want    []string
	}{
		// Travel.
		{"then after a comma", "find a hotel near the stadium, then book a table at the best-rated restaurant next to it",
			[]string{"find a hotel near the stadium", "book a table at the best-rated restaurant next to it"}},
		{"and joins two verb phrases", "Find flights between Paris and Lyon and book the cheapest one.",
			[]string{"Find flights between Paris and Lyon", "book the cheapest one"}},
		{"three steps with a comma and then", "Find a movie starring Tom Hanks, check its rating on IMDb, then buy two tickets for tonight.",
			[]string{"Find a movie starring Tom Hanks", "check its rating on IMDb", "buy two tickets for tonight"}},
		{"and also after a frame", "Can you find hotels in Barcelona between June 1 and June 5 and also suggest some tapas bars nearby?",
			[]string{"find hotels in Barcelona between June 1 and June 5", "suggest some tapas bars nearby"}},
		{"plus", "Find a flight to Berlin, plus reserve a car at the airport.",
			[]string{"Find a flight to Berlin", "reserve a car at the airport"}},
		{"context sentence dropped", "I'm going to Rome on 3 March. Find me a hotel near the Vatican for 2 nights.",
			[]string{"Find me a hotel near the Vatican for 2 nights"}},
		{"two questions", "I need to get from JFK to Manhattan. What's the fastest way and how much does a taxi cost?",
			[]string{"get from JFK to Manhattan", "What's the fastest way", "how much does a taxi cost"}},

		{"coordinates written with a comma are data, not a part", "How high above sea level is the spot at 27.9881 N, 86.9250 E?",
			[]string{"How high above sea level is the spot at 27.9881 N"}},

		// Weather.
		{"question then also question", "What's the weather like in London? Also, is there any train strike tomorrow?",
			[]string{"What's the weather like in London", "is there any train strike tomorrow"}},
		{"want frame and please", "What's the forecast for Tokyo this weekend? I also need the air quality index there, and please convert 30 °C to Fahrenheit.",
			[]string{"What's the forecast for Tokyo this weekend", "the air quality index there", "convert 30 °C to Fahrenheit"}},
		// A purpose stays in its clause: no list of purpose markers splits it off.
		{"purpose stays in its clause", "Can you tell me what the weather will be like this weekend in Chicago so that I can plan a picnic?",
			[]string{"tell me what the weather will be like this weekend in Chicago so that I can plan a picnic"}},
		{"wh question after and", "What's the weather in Rome tomorrow and what should I pack?",
			[]string{"What's the weather in Rome tomorrow", "what should I pack"}},

		// Sports.
		{"next and finally sentences", "Get the NBA standings. Next, get the playoff schedule. Finally, show me the MVP odds.",
			[]string{"Get the NBA standings", "get the playoff schedule", "show me the MVP odds"}},
		{"comma and wh question", "I'm a huge fan of Formula 1. Who won the last Grand Prix, and what are the current driver standings?",
			[]string{"Who won the last Grand Prix", "what are the current driver standings"}},
		{"then show me", "Get the latest news about Lionel Messi, then show me his stats for the 2023 season.",
			[]string{"Get the latest news about Lionel Messi", "show me his stats for the 2023 season"}},
		{"who and who", "Who won the Champions League in 2022 and who scored the most goals?",
			[]string{"Who won the Champions League in 2022", "who scored the most goals"}},
		{"comma and tell me", "Show me the Premier League table, and tell me when Arsenal plays next.",
			[]string{"Show me the Premier League table", "tell me when Arsenal plays next"}},

		// Finance.
		{"colon intro dropped", "I need two things: find the stock price of AAPL and convert $200 to EUR.",
			[]string{"find the stock price of AAPL", "convert $200 to EUR"}},
		{"capitalised verbs after a colon", "I need two things: Find the stock price of Tesla and Book a meeting with my advisor.",
			[]string{"Find the stock price of Tesla", "Book a meeting with my advisor"}},
		{"question then imperative", "What is the market cap of NVIDIA? Compare it with AMD and Intel.",
			[]string{"What is the market cap of NVIDIA", "Compare it with AMD and Intel"}},
		{"also sentence", "Could you please tell me the exchange rate between USD and EUR? Also, convert 100 USD to EUR.",
			[]string{"tell me the exchange rate between USD and EUR", "convert 100 USD to EUR"}},
		{"greeting and trailer stripped", "hey can you tell me the price of ETH and BTC thx",
			[]string{"tell me the price of ETH and BTC"}},
		{"purpose with a task stays whole", "Get the prices of the three laptops so I can compare them.",
			[]string{"Get the prices of the three laptops so I can compare them"}},

		// Music.
		{"chit-chat around two requests", `Hello there! My sister is getting married in June and I'm in charge of the music. Could you find upbeat wedding songs from the 80s and create a playlist called "Wedding Vibes"? Thanks a lot, you're the best!`,
			[]string{"find upbeat wedding songs from the 80s", `create a playlist called "Wedding Vibes"`}},
		{"want to know and play", `I want to know the lyrics of "Bohemian Rhapsody" by Queen and play it on my speaker.`,
			[]string{`the lyrics of "Bohemian Rhapsody" by Queen`, "play it on my speaker"}},
		{"question then imperative sentence", "What are the top 10 songs by Taylor Swift? Play the first one on Spotify.",
			[]string{"What are the top 10 songs by Taylor Swift", "Play the first one on Spotify"}},
		{"and then without comma", "Find the artist and then play their top song.",
			[]string{"Find the artist", "play their top song"}},
		{"semicolon", "Find the album; then play the first track.",
			[]string{"Find the album", "play the first track"}},

		// E-commerce.
		{"comma list of steps", "Show my cart, apply the coupon SAVE20 and place the order.",
			[]string{"Show my cart", "apply the coupon SAVE20", "place the order"}},
		{"ambiguous verbs with objects", "Track my package and order a new phone case.",
			[]string{"Track my package", "order a new phone case"}},
		{"want to buy and check", "I'd like to buy a pair of running shoes under $100 and check whether they ship to Canada.",
			[]string{"buy a pair of running shoes under $100", "check whether they ship to Canada"}},
		{"search and add", "Search for black and white photography books and add the best one to my cart.",
			[]string{"Search for black and white photography books", "add the best one to my cart"}},
		{"remove then add", "Remove the item with ID 998877 from my wishlist, then add the blue version instead.",
			[]string{"Remove the item with ID 998877 from my wishlist", "add the blue version instead"}},

		// Calendar and account actions.
		{"agenda item", "add an agenda item for tomorrow at 9 with my token",
			[]string{"add an agenda item for tomorrow at 9 with my token"}},
		{"token context sentence", `My token is abc-123-xyz. Please add an agenda item "Dentist" for tomorrow at 9 and remind me an hour before.`,
			[]string{`add an agenda item "Dentist" for tomorrow at 9`, "remind me an hour before"}},
		{"cancel then reschedule", "Cancel my 10:30 appointment on Friday, then reschedule it for next Tuesday.",
			[]string{"Cancel my 10:30 appointment on Friday", "reschedule it for next Tuesday"}},
		{"schedule and share", "Schedule a call with the marketing team next Thursday at 2:30 pm and share the agenda doc with them.",
			[]string{"Schedule a call with the marketing team next Thursday at 2:30 pm", "share the agenda doc with them"}},
		{"reset and email", "My username is jdoe_42. Reset my password and email me the link.",
			[]string{"Reset my password", "email me the link"}},
		{"email with url and remind", "Send an email to john.doe@example.com with the report at https://example.com/report.pdf and remind me next Monday.",
			[]string{"Send an email to john.doe@example.com with the report at https://example.com/report.pdf", "remind me next Monday"}},

		// Movie databases.
		{"who directed", "Who directed the top-1 rated movie?", []string{"Who directed the top-1 rated movie"}},
		{"number of movies", "Give me the number of movies directed by Sofia Coppola",
			[]string{"Give me the number of movies directed by Sofia Coppola"}},
		{"number of movies and list", "Give me the number of movies directed by Sofia Coppola and list their release years.",
			[]string{"Give me the number of movies directed by Sofia Coppola", "list their release years"}},
		{"how many and which one", "How many movies has Christopher Nolan directed, and which one has the highest rating?",
			[]string{"How many movies has Christopher Nolan directed", "which one has the highest rating"}},
		{"who directed and when", "Who directed The Godfather and when was it released?",
			[]string{"Who directed The Godfather", "when was it released"}},
		{"three questions", "Who is the CEO of Apple, how old is he and where was he born?",
			[]string{"Who is the CEO of Apple", "how old is he", "where was he born"}},

		// The brief's chit-chat example.
		{"eager to learn dropped", "Can you provide me with the channel clips and the channel details? I'm eager to learn more about their content.",
			[]string{"provide me with the channel clips and the channel details"}},
		{"greeting and fan sentence dropped", "Hi! I'm a big fan of the Lakers. Could you get me their next game and the ticket prices? Thanks!",
			[]string{"get me their next game and the ticket prices"}},
		{"small talk question dropped", "Hey, how are you doing? Find me a taxi to the airport.",
			[]string{"Find me a taxi to the airport"}},
		{"bored", "I'm bored. Recommend a TV show like Breaking Bad.", []string{"Recommend a TV show like Breaking Bad"}},
		{"hungry", "I'm hungry. What's good to eat around here? Find me a sushi place that delivers.",
			[]string{"What's good to eat around here", "Find me a sushi place that delivers"}},
		// After "I want to", a verb with no object a tool would take is tentative ("gather
		// inspiration"); one with a determined object is a task.
		{"a want's object decides", "I want to gather inspiration and plan a memorable event. Find party venues in Austin for 50 guests.",
			[]string{"plan a memorable event", "Find party venues in Austin for 50 guests"}},

		// Enumerations.
		{"parenthesised numbers", "1) find hotels in Rome for 3 nights 2) book a table for 4 people on 3 March 3) check the weather",
			[]string{"find hotels in Rome for 3 nights", "book a table for 4 people on 3 March", "check the weather"}},
		{"numbered lines", "1. Find the Arsenal squad\n2. Get the injury list\n3. Show the next fixture",
			[]string{"Find the Arsenal squad", "Get the injury list", "Show the next fixture"}},
		{"first second", "First, look up the user id for @nasa. Second, fetch their latest 10 tweets.",
			[]string{"look up the user id for @nasa", "fetch their latest 10 tweets"}},
		{"first second in one sentence", "First find a cheap hotel in Lisbon, second book a fado show nearby.",
			[]string{"find a cheap hotel in Lisbon", "book a fado show nearby"}},
		{"bullets on lines", "Please do the following:\n- get my latest invoices\n- send them to accounting@acme.com",
			[]string{"get my latest invoices", "send them to accounting@acme.com"}},

		// Abbreviations, numbers and domains do not end sentences.
		{"e.g. inside a clause", "Find vegan restaurants, e.g. in Soho, and book a table for two.",
			[]string{"Find vegan restaurants, e.g. in Soho", "book a table for two"}},
		{"domain name", "Visit example.com and tell me what it says.", []string{"tell me what it says"}}, // "Visit example.com" is tentative
		{"U.S. abbreviation", "What is the population of the U.S. and which city is the largest?",
			[]string{"What is the population of the U.S.", "which city is the largest"}},
		{"Kick.com", "Please find streams on Kick.com and list the top 5 channels so that I can pick one.",
			[]string{"find streams on Kick.com", "list the top 5 channels so that I can pick one"}},
		{"decimal number", "Find hotels rated above 4.5 stars in Nice and show me their prices.",
			[]string{"Find hotels rated above 4.5 stars in Nice", "show me their prices"}},
		{"as well as a gerund", "I want to order a pizza as well as booking a taxi for 8 pm.",
			[]string{"order a pizza", "booking a taxi for 8 pm"}},
		{"additionally", "Search for jobs in data science. Additionally, send my CV to the top 3 recruiters.",
			[]string{"Search for jobs in data science", "send my CV to the top 3 recruiters"}},
		{"single clause", "Tell me a joke.", []string{"Tell me a joke"}},
		{"sentence continuing with and", "Tell me the weather in Rome. And the weather in Paris.",
			[]string{"Tell me the weather in Rome", "the weather in Paris"}},
		{"stacked connectives", "ok so first get me the list of countries, then give me their capitals",
			[]string{"get me the list of countries", "give me their capitals"}},
		{"plain verb with a preposition", "Get the price in dollars and convert to euros.",
			[]string{"Get the price in dollars", "convert to euros"}},
		{"want frame and a new frame", "I'm planning a vacation to Hawaii next month. Can you suggest some activities and find flights from LA?",
			[]string{"suggest some activities", "find flights from LA"}},
		{"curiosity is a request", "Please fetch the channel info for xQc on Kick.com. I'm curious about their schedule too.",
			[]string{"fetch the channel info for xQc on Kick.com", "their schedule too"}},
		{"help me frame", "Could you help me find a dentist in Boston that takes my insurance?",
			[]string{"find a dentist in Boston that takes my insurance"}},
		{"it would be helpful to", "Can you generate a random set of colors? Additionally, it would be helpful to see a color set based on the color 'green'.",
			[]string{"generate a random set of colors", "see a color set based on the color 'green'"}},
		{"it would be great if you could", "Find me a new phone. It would be great if you could include the prices in euros.",
			[]string{"Find me a new phone", "include the prices in euros"}},
		{"query heads a request", "Query meeting of John and send email reminder to john@example.com.",
			[]string{"send email reminder to john@example.com"}}, // "Query meeting of John" is tentative
		{"a motive with a quoted value", "Generate random colors for me. Also, I would like to explore a set of colors based on the color 'yellow'.",
			[]string{"Generate random colors for me", "explore a set of colors based on the color 'yellow'"}},

		// A clause that only refers back asks for what the sentence before names.
		{"refers back to a statement", "I'm researching the latest expiring domain names. Can you provide me with that information? Also, validate the email 'a@b.co'.",
			[]string{"I'm researching the latest expiring domain names. Can you provide me with that information", "validate the email 'a@b.co'"}},
		{"interest frame, then a reference back", "I'm interested in the latest expiring domain names. Can you provide me with that information? Also, validate the email 'a@b.co'.",
			[]string{"the latest expiring domain names", "validate the email 'a@b.co'"}},
		{"interest after a motive", "Get the weather in Paris. I'm planning a road trip and I'm also interested in the gas prices in New Mexico.",
			[]string{"Get the weather in Paris", "the gas prices in New Mexico"}},
		{"want without a subject", "Get the weather in Paris. I'm considering joining a Discord server and would like to know more about the invite code 'xyz789'.",
			[]string{"Get the weather in Paris", "more about the invite code 'xyz789'"}},
		{"need without a subject", "Get the weather in Paris. I'm planning a fitness retreat and need a variety of exercises for the participants.",
			[]string{"Get the weather in Paris", "a variety of exercises for the participants"}},
		{"third person want", "Get the weather in Paris. My friend is interested in a particular business and wants to know its reviews.",
			[]string{"Get the weather in Paris", "its reviews"}},
		{"another subject's want", "Get the weather in Paris. My friend wants to retrieve the NFTs owned by a wallet. Additionally, they want to review the transactions.",
			[]string{"Get the weather in Paris", "retrieve the NFTs owned by a wallet", "review the transactions"}},
		{"another subject's interest in doing something", "Get the weather in Paris. My company is interested in retrieving the list of variables.",
			[]string{"Get the weather in Paris", "retrieving the list of variables"}},
		{"a verb is no subject", "Get the weather in Paris. Their list needs to grow.",
			[]string{"Get the weather in Paris"}},
		{"would need to", "Get the weather in Paris. Additionally, I would need to download the checksum for verification.",
			[]string{"Get the weather in Paris", "download the checksum for verification"}},
		{"curious if", "Get the weather in Paris. I'm curious if my comment 'you fool' contains any offensive language.",
			[]string{"Get the weather in Paris", "my comment 'you fool' contains any offensive language"}},
		{"fun to", "Get the weather in Paris. Also, it would be fun to include a random quote from a movie.",
			[]string{"Get the weather in Paris", "include a random quote from a movie"}},
		{"roll a die", "Get the weather in Paris. Finally, roll a 10-sided die and share the result.",
			[]string{"Get the weather in Paris", "roll a 10-sided die", "share the result"}},
		{"motive met by a task", "Get the weather in Paris. I want to surprise my family by tracking the package with the ID 6045e2.",
			[]string{"Get the weather in Paris", "surprise my family by tracking the package with the ID 6045e2"}},
		// No list of motives: a verb with a determined object reads as a task.
		{"motive by something else", "Get the weather in Paris. I want to surprise my family by the lake.",
			[]string{"Get the weather in Paris", "surprise my family by the lake"}},
		{"motive naming a service", "Get the weather in Paris. Moreover, we would like to explore the supported languages using the Translate it API.",
			[]string{"Get the weather in Paris", "explore the supported languages using the Translate it API"}},
		{"motive asking for information", "Get the weather in Paris. I need to gather information about the participating countries. Lastly, gather the details of the device '24680'.",
			[]string{"Get the weather in Paris", "gather the details of the device '24680'"}}, // "gather information about ..." is tentative
		{"motive asking for nothing a tool gives", "Get the weather in Paris. I want to gather inspiration for my trip.",
			[]string{"Get the weather in Paris"}},
		{"helpful for me to", "Get the weather in Paris. It would be helpful for me to know the CPU time limit.",
			[]string{"Get the weather in Paris", "know the CPU time limit"}},
		{"ask as a request", "Get the weather in Paris. Ask the chatbot if it knows any good puzzle games.",
			[]string{"Get the weather in Paris", "Ask the chatbot if it knows any good puzzle games"}},
		{"refers back to a task", "Retrieve the tweets of the user 44196397. Can you fetch this information for me?",
			[]string{"Retrieve the tweets of the user 44196397"}},
		{"a new thing of what it refers to", "Create a tracking task for the code '123'. I want to retrieve the result for this task.",
			[]string{"Create a tracking task for the code '123'", "retrieve the result for this task"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, clauses(t, tt.request), "Split(%q)", tt.request)
		})
	}
}

// TestSplitDoesNotSplitNounLists: "and" between nouns, names and fixed phrases, and a comma
// after a circumstance, never split.
func TestSplitDoesNotSplitNounLists(t *testing.T) {
	for _, request := range []string{
		"Show me black and white movies from the 1950s.",
		"Recommend some rock and roll playlists on Spotify.",
		"What's the distance between Paris and Lyon?",
		"Find songs by Simon and Garfunkel.",
		"Get me the salt and pepper shakers from the kitchen store.",
		"I need a hotel and a rental car in Miami for 3 nights.",
		"Get the scores and schedule for Sunday's games.",
		"Give me the order history and return policy for my account.",
		"Tell me the time in Tokyo, New York and London.",
		"Find coffee shops and bookstores in Brooklyn.",
		"Get weather data and air quality for Delhi.",
		"Get me the top headlines from BBC News and the New York Times.",
		"List the players and their positions for Juventus.",
		"Find the flight times and check-in details for my trip.",
		"Show the track listing and play count of the album.",
		"Look up the pros and cons of electric cars.",
		"Find a recipe for chicken and rice.",
		"Search and book a flight from NYC to London on March 3rd, 2024.",
		"Can you search and compare prices for the iPhone 15 Pro?",
		"If it rains tomorrow, find me an indoor activity in Seattle.",
		"Translate 'good morning' into Spanish, then into French.",
		"Find the Lord of the Rings books and the Bank of America branch near me.",
		"Show me how to cook pasta and what ingredients I need.",
		"I want to compare the stock performance of Tesla and Ford over the past 6 months.",
		"Find out when and where the concert is.",
		"Sort the results by price and rating.",
		"Get the news, weather, and traffic for Dublin.",
		"Find restaurants near the stadium, like the one we went to last time.",
		"Play track 4 and track 5.",
		"Find a hotel that I can book and cancel for free.",
		"Find me people who like hiking and play tennis.",
		"Retrieve my Spotify playlists, then for each one list the tracks.",
		"Find reviews of Law and Order and Pride and Prejudice.",
		"Show me tickets for Beauty and the Beast on Broadway.",
	} {
		t.Run(request, func(t *testing.T) {
			assert.Len(t, clauses(t, request), 1, "Split(%q)", request)
		})
	}
}

func TestSplitStripsFraming(t *testing.T) {
	tests := []struct{ request, want string }{
		{"Can you find me a hotel in Oslo?", "find me a hotel in Oslo"},
		{"Could you please get the weather in Lima?", "get the weather in Lima"},
		{"I'd like to book a table for two at 8 pm, please.", "book a table for two at 8 pm"},
		{"I want to know the population of Canada.", "the population of Canada"},
		{"Please convert 50 GBP to USD. Thanks!", "convert 50 GBP to USD"},
		{"Also, can you check my bank balance?", "check my bank balance"},
		{"Is it possible to track order 55123?", "track order 55123"},
		{"I was wondering if you could find the opening hours of the Prado.", "find the opening hours of the Prado"},
		{"Hi there, could you list my open tickets?", "list my open tickets"},
		{"Kindly send the invoice to billing@shop.io", "send the invoice to billing@shop.io"},
		{"I'm looking for a vegetarian restaurant in Zurich.", "a vegetarian restaurant in Zurich"},
		{"Let me know the score of the Celtics game.", "the score of the Celtics game"},
		{"Next week's games for the Yankees, please.", "Next week's games for the Yankees"},
	}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			assert.Equal(t, []string{tt.want}, clauses(t, tt.request))
		})
	}
}

func TestSplitWholeGoal(t *testing.T) {
	request := "  Find a hotel in Rome,\n then book a table near the Trevi Fountain for 3 March.  "
	goals := Split(request)
	require.Len(t, goals, 3)
	whole := goals[2]
	assert.True(t, whole.Whole)
	assert.Equal(t, strings.TrimSpace(request), whole.Text)
	assert.Equal(t, 2, whole.Order)
	assert.Equal(t, 2, whole.Rank)
	assert.Equal(t, SourceSplit, whole.Source)
	assert.Equal(t, []string{"Rome", "Trevi Fountain", "3 March"}, whole.Values)
	for i, g := range goals {
		assert.Equal(t, i, g.Order)
		assert.Equal(t, SourceSplit, g.Source)
	}

	// One clause: the clause goal and the whole goal anyway.
	goals = Split("What's the weather in Lima?")
	require.Len(t, goals, 2)
	assert.Equal(t, "What's the weather in Lima", goals[0].Text)
	assert.False(t, goals[0].Whole)
	assert.True(t, goals[1].Whole)
	assert.Equal(t, "What's the weather in Lima?", goals[1].Text)
}

func TestSplitFallbacks(t *testing.T) {
	assert.Nil(t, Split(""))
	assert.Nil(t, Split(" \n\t "))

	// No clause states a task: the clauses that are not chit-chat are kept.
	assert.Equal(t, []string{"plan a memorable event"},
		clauses(t, "I want to gather inspiration and plan a memorable event."))
	assert.Equal(t, []string{"gather inspiration"}, clauses(t, "I want to gather inspiration."))
	assert.Equal(t, []string{"Weather in Rome"}, clauses(t, "Weather in Rome"))

	// Only chit-chat, or nothing left after stripping: the whole request is the clause.
	assert.Equal(t, []string{"Thank you for your help!"}, clauses(t, "Thank you for your help!"))
	assert.Equal(t, []string{"Can you help me?"}, clauses(t, "Can you help me?"))
	assert.Equal(t, []string{"???"}, clauses(t, "???"))
}

func TestSplitRanks(t *testing.T) {
	tests := []struct {
		name    string
		request string
		texts   []string
		ranks   []int
	}{
		{"default is the order", "Find a hotel in Rome, then book a table nearby.",
			[]string{"Find a hotel in Rome", "book a table nearby"}, []int{0, 1}},
		{"but first", "Book a table at Luigi's tonight, but first check the weather in Rome.",
			[]string{"Book a table at Luigi's tonight", "check the weather in Rome"}, []int{1, 0}},
		{"before that", "Book a table at the steakhouse. Before that, find a steakhouse near Madison Square Garden.",
			[]string{"Book a table at the steakhouse", "find a steakhouse near Madison Square Garden"}, []int{1, 0}},
		{"first moves a chain to the front", "Book a table for tonight. First, find a restaurant near the stadium. Then check its reviews.",
			[]string{"Book a table for tonight", "find a restaurant near the stadium", "check its reviews"}, []int{2, 0, 1}},
		{"first at the start changes nothing", "First find the venue. Then buy the tickets.",
			[]string{"find the venue", "buy the tickets"}, []int{0, 1}},
		{"before that moves before the previous clause only", "Get the weather in Oslo. Book a cab to the airport. Before that, check my flight status.",
			[]string{"Get the weather in Oslo", "Book a cab to the airport", "check my flight status"}, []int{0, 2, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			goals := Split(tt.request)
			require.Len(t, goals, len(tt.texts)+1)
			for i, g := range goals[:len(tt.texts)] {
				assert.Equal(t, tt.texts[i], g.Text)
				assert.Equal(t, tt.ranks[i], g.Rank, "rank of %q", g.Text)
			}
			assert.Equal(t, len(tt.texts), goals[len(tt.texts)].Rank)
		})
	}
}

func TestSplitValues(t *testing.T) {
	tests := []struct {
		request string
		values  [][]string // per clause goal
	}{
		{"find hotels in Rome for 3 nights, then book a table at the best-rated restaurant next to the Pantheon on 3 March",
			[][]string{{"Rome", "3 nights"}, {"Pantheon", "3 March"}}},
		{"Who directed the top-1 rated movie?", [][]string{{"top-1"}}},
		{"Give me the number of movies directed by Sofia Coppola", [][]string{{"Sofia Coppola"}}},
		{"add an agenda item for tomorrow at 9 with my token", [][]string{{"tomorrow", "9"}}},
		{"Find streams on Kick.com and list the top 5 channels.", [][]string{{"Kick.com"}, {"top 5 channels"}}},
		{"Get the latest news about Lionel Messi's transfer.", [][]string{{"Lionel Messi"}}},
		{`Play "Hey Jude" by The Beatles and show me the lyrics.`, [][]string{{"Hey Jude", "The Beatles"}, nil}},
		{"Check my order AB123 status, and cancel it if it hasn't shipped.", [][]string{{"AB123"}, nil}},
		{"Calculate the monthly payment for a $300,000 mortgage at 6.5% over 30 years.",
			[][]string{{"$300,000", "6.5%", "30 years"}}},
		{"Find the cheapest flight from Madrid to Lisbon on 12/05/2024 for 2 passengers.",
			[][]string{{"Madrid", "Lisbon", "12/05/2024", "2 passengers"}}},
		{"Book the Hilton in New York for 2 adults from June 3rd, 2025 to next Friday.",
			[][]string{{"Hilton", "New York", "2 adults", "June 3rd, 2025", "next Friday"}}},
		{"Generate a QR code for https://mysite.io and send it to bob@mail.com.",
			[][]string{{"QR", "https://mysite.io"}, {"bob@mail.com"}}},
		{"Could you check the status of flight BA 2490?", [][]string{{"BA 2490"}}},
		{"Convert 30 °C to Fahrenheit and 86°F to Celsius.", [][]string{{"30 °C", "Fahrenheit", "86°F", "Celsius"}}},
		{"Compare the iPhone 15 Pro with the Galaxy S24 on eBay.", [][]string{{"iPhone 15 Pro", "Galaxy S24", "eBay"}}},
		{"Look up @nasa and #space posts from the past 2 weeks.", [][]string{{"@nasa", "#space", "past 2 weeks"}}},
		{"Schedule a call next Thursday at 2:30 pm.", [][]string{{"next Thursday", "2:30 pm"}}},
		{"Remind me tomorrow morning about the 10:30 meeting with Dr. Patel.", [][]string{{"tomorrow morning", "10:30", "Dr. Patel"}}},
		{"Who directed The Godfather?", [][]string{{"The Godfather"}}},
		{"Find the Lord of the Rings books at Barnes & Noble.", [][]string{{"Lord of the Rings", "Barnes & Noble"}}},
		{"What's the price of AAPL in USD?", [][]string{{"AAPL", "USD"}}},
		{"Find Hotels In Rome Near The Colosseum For Next Weekend", [][]string{{"Next Weekend"}}},
		{"Book two tickets for the 8 pm show.", [][]string{{"8 pm"}}},
		{"Show me black and white movies from the 1950s.", [][]string{{"1950s"}}},
		{"I need the standings of the Premier League in the 2021-2022 season.", [][]string{{"Premier League", "2021-2022"}}},
	}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			goals := clauseGoals(t, tt.request)
			require.Len(t, goals, len(tt.values))
			for i, g := range goals {
				assert.Equal(t, tt.values[i], g.Values, "values of %q", g.Text)
			}
		})
	}
}

func TestValues(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"nothing to see here", nil},
		{"Lionel Messi scored twice against Real Madrid.", []string{"Lionel Messi", "Real Madrid"}},
		{"Rome is lovely. So is Florence.", []string{"Florence"}}, // a single name that starts a sentence is missed
		{"between Paris and Lyon", []string{"Paris", "Lyon"}},
		{"the day after tomorrow at noon", []string{"day after tomorrow", "noon"}},
		{"on 3rd of March 2024 or March 5", []string{"3rd of March 2024", "March 5"}},
		{"in May", nil}, // "May" alone is no date
		{"from May 4 to May 6", []string{"May 4", "May 6"}},
		{"'single quoted' and “curly quoted” and «guillemets»", []string{"single quoted", "curly quoted", "guillemets"}},
		{"don't split users' apostrophes", nil},
		{"write to ann@example.com or see www.example.com/page.", []string{"ann@example.com", "www.example.com/page"}},
		{"ids like tt0111161, user_42 and SKU-99X", []string{"tt0111161", "user_42", "SKU-99X"}},
		{"about 1,000 people and 25% off", []string{"1,000", "25%"}},
		{"3 nights for 2 adults, $300,000 at 6.5% over 30 years", []string{"3 nights", "2 adults", "$300,000", "6.5%", "30 years"}},
		{"e.g. Paris, approx. 5 km from Dr. Patel's office", []string{"Paris", "5", "Dr. Patel"}},
		{"J. K. Rowling's books", []string{"J. K. Rowling"}},
		{"the Stade de France and the Bay of Naples", []string{"Stade de France", "Bay of Naples"}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			assert.Equal(t, tt.want, Values(tt.text))
		})
	}
}

func TestMerge(t *testing.T) {
	goals := Split("Find a hotel in Rome for 2 nights. Book a table near the Pantheon. Then check the weather in Rome.")
	require.Len(t, goals, 4)
	before := make([]Goal, len(goals))
	copy(before, goals)

	merged := Merge(goals, 2, 0)
	require.Len(t, merged, 3)
	assert.Equal(t, "Find a hotel in Rome for 2 nights and check the weather in Rome", merged[0].Text)
	assert.Equal(t, []string{"Rome", "2 nights"}, merged[0].Values)
	assert.Equal(t, "Book a table near the Pantheon", merged[1].Text)
	assert.True(t, merged[2].Whole)
	for i, g := range merged {
		assert.Equal(t, i, g.Order)
		assert.Equal(t, i, g.Rank)
	}
	assert.Equal(t, before, goals, "Merge does not modify its argument")

	// Ranks stay in their relative order.
	goals = Split("Book a table at Luigi's tonight. Call a taxi for 7 pm. Before that, check the weather in Rome.")
	require.Len(t, goals, 4)
	require.Equal(t, []int{0, 2, 1, 3}, []int{goals[0].Rank, goals[1].Rank, goals[2].Rank, goals[3].Rank})
	merged = Merge(goals, 0, 1)
	require.Len(t, merged, 3)
	assert.Equal(t, "Book a table at Luigi's tonight and Call a taxi for 7 pm", merged[0].Text)
	assert.Equal(t, []string{"Luigi", "tonight", "7 pm"}, merged[0].Values)
	assert.Equal(t, 0, merged[0].Rank)
	assert.Equal(t, 1, merged[1].Rank)
	assert.Equal(t, 2, merged[2].Rank)

	// Out of range, equal indices or the whole goal: an unchanged copy.
	for _, ij := range [][2]int{{-1, 0}, {0, 4}, {1, 1}, {0, 3}} {
		got := Merge(goals, ij[0], ij[1])
		assert.Equal(t, goals, got)
		if len(got) > 0 && len(got[0].Values) > 0 {
			got[0].Values[0] = "changed"
			assert.NotEqual(t, "changed", goals[0].Values[0], "the copy does not share values")
		}
	}
}

func TestGoalString(t *testing.T) {
	g := Goal{Order: 1, Text: "book a table at the best-rated restaurant", Values: []string{"Rome", "3 March"}, Rank: 1}
	assert.Equal(t, `#1 "book a table at the best-rated restaurant" [Rome, 3 March]`, g.String())
	g = Goal{Order: 0, Text: "book a table", Rank: 1}
	assert.Equal(t, `#0 "book a table" rank=1`, g.String())
	g = Goal{Order: 2, Text: "Find X, then book Y.", Whole: true, Rank: 2}
	assert.Equal(t, `#2 "Find X, then book Y." whole`, g.String())
}

func TestSplitDeterministic(t *testing.T) {
	request := "Hi! Find a hotel in Rome for 3 nights, then book a table for 4 people on 3 March. Thanks!"
	first := Split(request)
	for range 20 {
		assert.Equal(t, first, Split(request))
	}
}

func BenchmarkSplit(b *testing.B) {
	requests := []string{
		"find a hotel near the stadium, then book a table at the best-rated restaurant next to it",
		"Can you provide me with the channel clips and the channel details? I'm eager to learn more about their content.",
		`Hello there! My sister is getting married in June and I'm in charge of the music. Could you find upbeat wedding songs from the 80s and create a playlist called "Wedding Vibes"? Thanks a lot, you're the best!`,
		"1) find hotels in Rome for 3 nights 2) book a table for 4 people on 3 March 3) check the weather",
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Split(requests[i%len(requests)])
	}
}

func TestFrameForms(t *testing.T) {
	got := frameForms([]string{"i would like to", "i am looking for", "can you"})
	for _, want := range []string{"i would like to", "i'd like to", "we would like to", "we'd like to",
		"i am looking for", "i'm looking for", "we are looking for", "we're looking for", "can you", "can u"} {
		assert.Contains(t, got, want)
	}
	assert.NotContains(t, got, "we am looking for")
	assert.Len(t, got, 10)
}

func TestSplitResolvesPronouns(t *testing.T) {
	tests := []struct {
		request string
		want    []string // each clause's Resolved
	}{
		// The pronoun stands for what the clause before asks about, the noun its head ends with.
		{"How many stars does the best hotel in Lisbon have, and where is it exactly?", []string{"", "where is the hotel exactly"}},
		{"Find the best restaurant in Rome and book it for 4 people", []string{"", "book the restaurant for 4 people"}},
		// A possessive pronoun too: the thing is its owner.
		{"Where exactly is the best hotel in Krakow? I need its coordinates.", []string{"", "the hotel coordinates"}},
		{"Who is the estate agent for the best home in Toronto, and what is their phone number?", []string{"", "what is the agent phone number"}},
		// A clause whose head ends on no noun names its one value: the possessive's owner.
		{"where exactly is Lima? I need its coordinates", []string{"", "Lima's coordinates"}},
		// A value is the referent of a possessive only: "it" after "where is Lima" is no city.
		{"where exactly is Lima? And show me the weather forecast for it", []string{"", ""}},
		// A noun phrase before the pronoun is what it stands for.
		{"Get the weather in Paris. Ask the chatbot if it knows any good puzzle games.", []string{"", ""}},
		// The clause before has no head: nothing to stand for.
		{"Find hotels and book it", []string{"", ""}},
		// A clause without a pronoun is ranked by its own words.
		{"What's the weather in Lisbon right now, and what hotels are there?", []string{"", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.request, func(t *testing.T) {
			goals := Split(tt.request)
			var got []string
			for _, g := range goals {
				if !g.Whole {
					got = append(got, g.Resolved)
				} else {
					assert.Empty(t, g.Resolved, "the whole request is ranked as written")
				}
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestRefersBack(t *testing.T) {
	for text, want := range map[string]bool{
		"who's their top scorer": true, "book it for me": true, "what is its address?": true,
		"when do Ajax play next": false, "who leads the Eredivisie": false, "is it raining": true,
	} {
		assert.Equal(t, want, RefersBack(text), text)
	}
}

func TestWithoutQuotes(t *testing.T) {
	tests := []struct{ text, want string }{
		{`For my "Support Ticket Triage" eval, show me the cases`, `For my   eval, show me the cases`},
		{`post “Server down tonight” in Announcements`, `post   in Announcements`},
		{`songs on "Road Trip" and "Morning Run"`, `songs on   and  `},
		{`a quote "left open`, `a quote "left open`},
		{`"Hello there"`, `"Hello there"`}, // all quotation: kept whole
		{`Bob's "hits"`, `Bob's  `},
		{"no quotes", "no quotes"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, WithoutQuotes(tt.text), tt.text)
	}
}
