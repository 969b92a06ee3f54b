// Mean comprehensiveness per model over all its evaluated responses, best first.
// params: method (optional: the Evaluation's method as stored: nli, qa, e2e, icat-m, ...; left out or null for all)
// known: method = MATCH (e:Evaluation) RETURN DISTINCT e.method AS value ORDER BY value
// columns: model, mean_comprehensiveness, evaluations, basis_facts
MATCH (e:Evaluation)-[:EVALUATES]->(r:Response)
WHERE ($method IS NULL OR e.method = $method) AND e.comprehensiveness IS NOT NULL
OPTIONAL MATCH (r)-[m:MISSES]->(:Statement)
WHERE m.basis = true AND m.evaluation = e.id
WITH r.model AS model, e, count(m) AS basis
RETURN model, avg(e.comprehensiveness) AS mean_comprehensiveness,
       count(e) AS evaluations, sum(basis) AS basis_facts
ORDER BY mean_comprehensiveness DESC, model
