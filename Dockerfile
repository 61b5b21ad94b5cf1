# The classroom server in a container (docs/serving.md, "A classroom server"): the app built
# once into dist/, served by `npm run classroom` with the rooms' API on port 8080. Rooms live
# in PGlite's directory, the volume /data, unless DATABASE_URL names a PostgreSQL.
FROM node:20-bookworm-slim

WORKDIR /app
# Dependencies first, so a change to the source does not reinstall them. The development
# packages stay: the build needs them, and the server runs its TypeScript through tsx. No
# scripts: the package's own `prepare` bundles the command line from bin/ and src/, which are not
# copied yet, and a classroom server does not run `lab`.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts

COPY . .
RUN npm run build

ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    CLASSROOM_DATA=/data
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 8080
CMD ["npm", "run", "classroom"]
