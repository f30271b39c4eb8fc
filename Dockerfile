# The bot in a container: `docker build -t card-table-bot .` then
# `docker run --env-file .env -v cardtable-data:/app/data card-table-bot`
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    DATABASE_PATH=/app/data/cardtable.sqlite3

WORKDIR /app

# Dependencies first: this layer is rebuilt only when the lock file changes.
COPY requirements.lock ./
RUN pip install --no-cache-dir -r requirements.lock

RUN useradd --create-home --uid 10001 cardtable \
    && mkdir -p /app/data \
    && chown cardtable:cardtable /app/data

COPY bot ./bot
COPY cogs ./cogs

USER 10001
VOLUME ["/app/data"]

# SIGTERM from `docker stop` closes the bot cleanly.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
