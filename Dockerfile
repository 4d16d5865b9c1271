# The Navi worker and the navi command line, for docker-compose.yaml and for deployment next to
# an existing Temporal cluster and Neo4j. (The embedded dev server in devserver/ is not needed
# here: compose runs Temporal from its official images.)
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -o /out/navi-worker ./worker && \
    CGO_ENABLED=0 go build -trimpath -o /out/navi ./starter

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/navi-worker /out/navi /usr/local/bin/
COPY catalogs /catalogs
ENTRYPOINT ["/usr/local/bin/navi-worker"]
