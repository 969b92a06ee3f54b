// Why a statement counts as covered: the shortest entailment path from the response to it,
// as the graph engine found it (stored on the COVERS relationship when the result was pushed;
// with several evaluations of the response, the shortest of their paths).
// params: response_id, statement_id
// known: response_id = MATCH (r:Response) RETURN r.response_id AS value ORDER BY value
// columns: path, texts, steps
MATCH (r:Response {response_id: $response_id})-[c:COVERS]->(:Statement {id: $statement_id})
WITH c ORDER BY size(c.path), c.evaluation LIMIT 1
UNWIND range(0, size(c.path) - 1) AS i
MATCH (n:Statement {id: c.path[i]})
WITH c, i, n
ORDER BY i
RETURN collect(n.id) AS path, collect(n.text) AS texts, size(c.path) - 1 AS steps
