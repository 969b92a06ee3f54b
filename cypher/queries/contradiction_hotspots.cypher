// Statements involved in the most contradictions (either direction), with their origin.
// params: limit (how many rows)
// columns: statement_id, text, origin, contradictions
MATCH (s:Statement)-[:CONTRADICTS]-(o:Statement)
WITH s, count(DISTINCT o) AS contradictions
RETURN s.id AS statement_id, s.text AS text, s.origin AS origin, contradictions
ORDER BY contradictions DESC, statement_id
LIMIT $limit
