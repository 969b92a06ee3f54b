// Background statements some response of model A covers and a response of model B to the same
// query misses.
// params: model_a, model_b
// known: model_a = MATCH (r:Response) RETURN DISTINCT r.model AS value ORDER BY value
// known: model_b = MATCH (r:Response) RETURN DISTINCT r.model AS value ORDER BY value
// columns: statement_id, text, query
MATCH (q:Query)-[:HAS_RESPONSE]->(ra:Response {model: $model_a})-[:COVERS]->(s:Statement)
MATCH (q)-[:HAS_RESPONSE]->(rb:Response {model: $model_b})-[:MISSES]->(s)
RETURN DISTINCT s.id AS statement_id, s.text AS text, q.text AS query
ORDER BY query, text
