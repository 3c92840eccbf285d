# syntax=docker/dockerfile:1
# SolarSystem server: built with the official Swift image, run on slim Debian.
#   docker build -t solarsystem .
#   docker run -p 8080:8080 -v solarsystem-data:/data solarsystem

FROM swift:6.3-bookworm AS build
# Debian's security updates replace package versions in place, so pins would break later
# builds; the base image fixes the release (bookworm).
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-dev zlib1g-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first, so source edits reuse the resolved packages layer.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product solarsystem --static-swift-stdlib \
    && install -D "$(swift build -c release --show-bin-path)/solarsystem" /out/solarsystem

FROM debian:bookworm-slim
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-0 zlib1g ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin solarsystem \
    && mkdir -p /data \
    && chown 10001:10001 /data
COPY --from=build /out/solarsystem /usr/bin/solarsystem
COPY Resources /usr/share/solarsystem
COPY Migrations /usr/share/solarsystem/Migrations
COPY openapi.yaml /usr/share/solarsystem/openapi.yaml
ENV SOLARSYSTEM_HOST=0.0.0.0 \
    SOLARSYSTEM_PORT=8080 \
    SOLARSYSTEM_DB=/data/solarsystem.sqlite \
    SOLARSYSTEM_RESOURCES=/usr/share/solarsystem \
    SOLARSYSTEM_MIGRATIONS=/usr/share/solarsystem/Migrations
USER 10001:10001
WORKDIR /data
VOLUME /data
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["solarsystem", "healthcheck", "--url", "http://127.0.0.1:8080/healthz"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["solarsystem"]
CMD ["serve"]
