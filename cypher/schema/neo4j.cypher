// Neo4j 5: uniqueness constraints on the stable ids (they also index them).
CREATE CONSTRAINT factgraph_query_id IF NOT EXISTS FOR (n:Query) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT factgraph_document_id IF NOT EXISTS FOR (n:Document) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT factgraph_response_id IF NOT EXISTS FOR (n:Response) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT factgraph_evaluation_id IF NOT EXISTS FOR (n:Evaluation) REQUIRE n.id IS UNIQUE;
CREATE CONSTRAINT factgraph_statement_id IF NOT EXISTS FOR (n:Statement) REQUIRE n.id IS UNIQUE;
CREATE INDEX factgraph_response_model IF NOT EXISTS FOR (n:Response) ON (n.model);
