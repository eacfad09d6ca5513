# One image for every service; docker-compose.yml picks the service with the command.
# Node 24, the newest LTS line package.json's engines admit (README, "Quick start")
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY scripts ./scripts
COPY prisma ./prisma
# postinstall generates the Prisma clients of the subgraphs this registry lists
COPY lib/graphql/subgraph-registry.ts ./lib/graphql/
RUN npm ci --include=dev
COPY . .
# npm start runs the bundle in dist/; built here, as root, since /app is not the node user's
RUN npm run build
# the embedded database's migrated template, so a PGlite deployment's first start does not make it
RUN node scripts/warm-start.mjs
USER node
EXPOSE 8080 8081 8082 4000 4001 4002 4003 4004
# node as the main process, not npm: `docker stop`'s SIGTERM then reaches the graceful stop (npm
# hands it to a shell that does not pass it on). The same command as package.json's start script
CMD ["node", "scripts/run-built.mjs", "start"]
