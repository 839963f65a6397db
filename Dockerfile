# The production image: the wheel of this project over the locked dependencies (requirements.lock,
# `make lock`), run as an unprivileged user from a code directory it cannot write.
# tests/test_deployment.py repeats these steps without a container engine.
FROM python:3.11-slim AS wheel
WORKDIR /src
COPY pyproject.toml README.md ./
COPY advisor advisor
COPY api api
COPY worker worker
COPY store store
COPY services services
COPY cli cli
COPY conf conf
COPY migrations migrations
COPY collector collector
RUN pip wheel --no-cache-dir --no-deps --wheel-dir /wheels .

FROM python:3.11-slim
COPY requirements.lock /tmp/requirements.lock
RUN pip install --no-cache-dir --require-hashes -r /tmp/requirements.lock
COPY --from=wheel /wheels /wheels
RUN pip install --no-cache-dir --no-deps /wheels/*.whl && rm -rf /wheels /tmp/requirements.lock \
    && useradd --system --uid 10001 --home-dir /var/lib/innotune --create-home innotune
# Beat's schedule and the worker's metric files go to the one writable place.
ENV INNOTUNE_BEAT_SCHEDULE=/var/lib/innotune/celerybeat-schedule \
    PYTHONDONTWRITEBYTECODE=1
WORKDIR /var/lib/innotune
USER innotune
EXPOSE 8000
CMD ["innotune", "serve", "--host", "0.0.0.0", "--port", "8000"]
