# Stage 1: build the single binary (SPA, assets and migrations embedded).
FROM oven/bun:1.4.5 AS build
WORKDIR /src
COPY package.json bun.lock ./
RUN bun install --frozen-lockfile
COPY . .
RUN bun run build

# Stage 2: the binary alone on a slim base, as a non-root user.
FROM debian:bookworm-slim
# /data is the server's alone (0700): a new volume takes the folder's owner and mode from the image.
RUN useradd --system --uid 10001 --user-group --home-dir /nonexistent --shell /usr/sbin/nologin vvx \
 && install -d -m 0700 -o vvx -g vvx /data
COPY --from=build /src/dist/vvx /usr/local/bin/vvx
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
VOLUME ["/data"]
EXPOSE 3000
USER vvx
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 CMD ["/usr/local/bin/vvx", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/vvx"]
