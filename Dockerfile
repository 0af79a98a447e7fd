# Build: a static binary, no cgo, stripped.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/sheetkeeper ./cmd/sheetkeeper \
 && mkdir -p /out/data

# Run: nothing but the binary, CA certificates for Discord, and a non-root user.
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/sheetkeeper /usr/local/bin/sheetkeeper
# The database lives on a volume the non-root user owns (distroless has no shell to chown).
COPY --from=build --chown=65532:65532 /out/data /data
ENV SHEETKEEPER_DB=/data/sheetkeeper.db
VOLUME ["/data"]
USER nonroot:nonroot
ENTRYPOINT ["sheetkeeper"]
CMD ["run"]
