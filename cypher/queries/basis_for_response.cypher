// The uncovered basis of one response: the fewest background facts it should add (a response
// judged by several evaluations: the union of their bases, each statement once).
// params: response_id (the response id given in the results, or the evaluation id)
// known: response_id = MATCH (r:Response) RETURN r.response_id AS value ORDER BY value
// columns: statement_id, text, source_id
MATCH (r:Response {response_id: $response_id})-[m:MISSES]->(s:Statement)
WHERE m.basis = true
RETURN DISTINCT s.id AS statement_id, s.text AS text, s.source_id AS source_id
ORDER BY source_id, text
