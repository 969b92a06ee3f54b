// Background statements of a query that every evaluated response misses.
// params: query (the query text)
// known: query = MATCH (q:Query) RETURN q.text AS value ORDER BY value
// columns: statement_id, text, source_id, responses
MATCH (q:Query {text: $query})-[:HAS_RESPONSE]->(r:Response)
WITH q, count(r) AS n_responses
MATCH (q)-[:HAS_RESPONSE]->(r:Response)-[:MISSES]->(s:Statement)
WITH s, n_responses, count(DISTINCT r) AS missing
WHERE missing = n_responses
RETURN s.id AS statement_id, s.text AS text, s.source_id AS source_id, missing AS responses
ORDER BY source_id, text
