SELECT
  t.TABLE_SCHEMA,
  t.TABLE_NAME,
  t.ENGINE,
  t.TABLE_ROWS,
  t.DATA_LENGTH,
  t.INDEX_LENGTH,
  EXISTS (
    SELECT 1 FROM information_schema.STATISTICS pk
    WHERE pk.TABLE_SCHEMA = t.TABLE_SCHEMA AND pk.TABLE_NAME = t.TABLE_NAME
      AND pk.INDEX_NAME = 'PRIMARY'
  ) AS has_primary_key,
  EXISTS (
    SELECT 1 FROM information_schema.STATISTICS u
    WHERE u.TABLE_SCHEMA = t.TABLE_SCHEMA AND u.TABLE_NAME = t.TABLE_NAME
      AND u.NON_UNIQUE = 0 AND u.INDEX_NAME <> 'PRIMARY'
      AND NOT EXISTS (
        SELECT 1 FROM information_schema.STATISTICS part
        WHERE part.TABLE_SCHEMA = u.TABLE_SCHEMA AND part.TABLE_NAME = u.TABLE_NAME
          AND part.INDEX_NAME = u.INDEX_NAME
          AND NOT EXISTS (
            SELECT 1 FROM information_schema.COLUMNS c
            WHERE c.TABLE_SCHEMA = part.TABLE_SCHEMA AND c.TABLE_NAME = part.TABLE_NAME
              AND c.COLUMN_NAME = part.COLUMN_NAME
              AND c.IS_NULLABLE = 'NO' AND c.EXTRA NOT LIKE '%VIRTUAL%'
          )
      )
  ) AS has_unique_not_null,
  (
    SELECT c.COLUMN_TYPE FROM information_schema.STATISTICS s
    JOIN information_schema.COLUMNS c
      ON c.TABLE_SCHEMA = s.TABLE_SCHEMA AND c.TABLE_NAME = s.TABLE_NAME AND c.COLUMN_NAME = s.COLUMN_NAME
    WHERE s.TABLE_SCHEMA = t.TABLE_SCHEMA AND s.TABLE_NAME = t.TABLE_NAME
      AND s.INDEX_NAME = 'PRIMARY' AND s.SEQ_IN_INDEX = 1
      AND NOT EXISTS (
        SELECT 1 FROM information_schema.STATISTICS s2
        WHERE s2.TABLE_SCHEMA = t.TABLE_SCHEMA AND s2.TABLE_NAME = t.TABLE_NAME
          AND s2.INDEX_NAME = 'PRIMARY' AND s2.SEQ_IN_INDEX = 2
      )
  ) AS primary_key_type
FROM information_schema.TABLES t
WHERE t.TABLE_TYPE IN ('BASE TABLE', 'SYSTEM VERSIONED')
  AND t.TABLE_SCHEMA NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys')
ORDER BY t.TABLE_SCHEMA, t.TABLE_NAME;
