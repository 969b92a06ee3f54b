// Why a statement counts as covered: a shortest entailment path from the response to it
// (at most 6 steps).
// params: response_id, statement_id
// columns: path, texts, steps
MATCH p = (r:Response {response_id: $response_id})-[:STATES]->(a:Statement)
          -[:ENTAILS*0..6]->(s:Statement {id: $statement_id})
RETURN [n IN tail(nodes(p)) | n.id] AS path, [n IN tail(nodes(p)) | n.text] AS texts,
       length(p) - 1 AS steps
ORDER BY steps
LIMIT 1
