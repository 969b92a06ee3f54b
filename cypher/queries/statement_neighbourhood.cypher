// Statements within k entailment / contradiction hops of one statement (either direction).
// params: statement_id, k (1 to 3)
// columns: statement_id, text, origin, hops
MATCH p = (s:Statement {id: $statement_id})-[:ENTAILS|CONTRADICTS*1..3]-(o:Statement)
WHERE length(p) <= $k AND o.id <> $statement_id
RETURN o.id AS statement_id, o.text AS text, o.origin AS origin, min(length(p)) AS hops
ORDER BY hops, statement_id
