// FalkorDB: range indexes on the stable ids (no IF NOT EXISTS; "already indexed" is ignored).
CREATE INDEX FOR (n:Query) ON (n.id);
CREATE INDEX FOR (n:Document) ON (n.id);
CREATE INDEX FOR (n:Response) ON (n.id);
CREATE INDEX FOR (n:Evaluation) ON (n.id);
CREATE INDEX FOR (n:Statement) ON (n.id);
CREATE INDEX FOR (n:Response) ON (n.model);
