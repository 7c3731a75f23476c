# The game server: `docker compose up` runs it with PostgreSQL (docker-compose.yml).
# On start it migrates the database named by DUEL_DATABASE_URL, then serves port 8000.

# The browser libraries (Preact, htm) and esbuild from the npm registry, at the versions
# package-lock.json pins. Only node_modules goes on to the image: nothing is built here;
# the server runs esbuild's binary to minify and bundle the pages' scripts when it starts
# serving them (app/api/bundles.py), and serves a few library files at /vendor.
FROM node:20-slim AS client
WORKDIR /client
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# The server's image: Python, no Node.
FROM python:3.11-slim

ENV DUEL_ENVIRONMENT=production \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/duel

# What setuptools needs to build the project: its metadata, the readme it names, the package.
COPY pyproject.toml README.md ./
COPY app ./app
RUN pip install .

# What `alembic upgrade head` reads from the working directory.
COPY alembic.ini ./
COPY migrations ./migrations

# The browser pages. uvicorn imports `app` from the working directory (its --app-dir),
# and the pages are served from beside it, the npm libraries too (node_modules).
COPY --from=client /client/node_modules ./node_modules
COPY templates ./templates
COPY static ./static

# The code stays root's; the server may only write its working directory (where the
# default embedded SQLite file would go).
RUN useradd --create-home --uid 10001 duel && chown duel:duel /srv/duel
USER duel

EXPOSE 8000

CMD ["sh", "-c", "alembic upgrade head && exec uvicorn --factory app.main:create_app --host 0.0.0.0 --port 8000 --ws-max-size 1048576 --http app.serving:HttpProtocol --ws app.serving:SocketProtocol --no-server-header --no-proxy-headers"]
