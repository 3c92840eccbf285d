# SolarSystem server: built with the official Swift image, run from scratch with only the
# shared libraries it links (gathered on slim Debian).
#   docker build -t solarsystem .
#   docker run -p 8080:8080 -v solarsystem-data:/data solarsystem
# scripts/docker-check.sh builds it and checks health, user, read-only root and docker stop.

FROM swift:6.3-bookworm AS build
# Debian's security updates replace package versions in place, so pins would break later
# builds; the base image fixes the release (bookworm).
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libsqlite3-dev zlib1g-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first, so source edits reuse the resolved packages layer.
COPY Package.swift ./
RUN swift package resolve
COPY Sources ./Sources
# The manifest names the test targets, so their folders must exist; nothing in them is built.
COPY Tests ./Tests
# Stripped: 61 MB instead of 84 (the symbols only name frames in a crash backtrace).
RUN swift build -c release --product solarsystem --static-swift-stdlib \
    && install -D --strip "$(swift build -c release --show-bin-path)/solarsystem" /out/solarsystem

# The runtime's root filesystem, gathered on slim Debian: the binary's shared libraries as its
# loader resolves them (glibc, libstdc++, SQLite, zlib, …) with the loader and its cache, the
# user and group 10001 (the ids the image runs as, USER below) and /data. No shell, no package
# manager: the server needs nothing else, and slim Debian itself was 75 of the image's 180 MB.
FROM debian:bookworm-slim AS runtime
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libsqlite3-0 zlib1g \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/solarsystem /usr/bin/solarsystem
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
RUN mkdir -p /rootfs/etc /rootfs/data \
    && ldd /usr/bin/solarsystem | grep -o '/[^ ]*' | sort -u | xargs -I{} cp --parents -L {} /rootfs \
    && cp /etc/ld.so.cache /rootfs/etc/ \
    && printf 'solarsystem:x:10001:10001::/data:/usr/sbin/nologin\n' >/rootfs/etc/passwd \
    && printf 'solarsystem:x:10001:\n' >/rootfs/etc/group \
    && chown 10001:10001 /rootfs/data

FROM scratch
COPY --from=runtime /rootfs /
COPY --from=build /out/solarsystem /usr/bin/solarsystem
COPY Resources /usr/share/solarsystem
COPY Migrations /usr/share/solarsystem/Migrations
COPY openapi.yaml /usr/share/solarsystem/openapi.yaml
# SOLARSYSTEM_SHUTDOWN_GRACE: in-flight requests get 8 s after SIGTERM, inside the 10 s that
# `docker stop` waits before SIGKILL (Kubernetes: terminationGracePeriodSeconds in deploy/).
ENV PATH=/usr/bin \
    SOLARSYSTEM_HOST=0.0.0.0 \
    SOLARSYSTEM_PORT=8080 \
    SOLARSYSTEM_DB=/data/solarsystem.sqlite \
    SOLARSYSTEM_RESOURCES=/usr/share/solarsystem \
    SOLARSYSTEM_MIGRATIONS=/usr/share/solarsystem/Migrations \
    SOLARSYSTEM_SHUTDOWN_GRACE=8
USER 10001:10001
WORKDIR /data
VOLUME /data
EXPOSE 8080
# Asks /healthz on SOLARSYSTEM_HOST/SOLARSYSTEM_PORT, so `-e SOLARSYSTEM_PORT=…` stays healthy.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
    CMD ["/usr/bin/solarsystem", "healthcheck"]
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/solarsystem"]
CMD ["serve"]
