FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY advisor advisor
COPY api api
COPY worker worker
COPY store store
COPY services services
COPY cli cli
COPY conf conf
COPY migrations migrations
RUN pip install --no-cache-dir .
USER nobody
EXPOSE 8000
CMD ["innotune", "serve", "--host", "0.0.0.0", "--port", "8000"]
