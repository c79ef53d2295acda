-- seed 1796411371510245538: Affected at statement 2 (memory store)
--     sqlite: Affected(0)
--     asadb:  Affected(1)
--   shrunk session:
--     CREATE TABLE t0(c0 VARCHAR(10) CHECK (c0 IS NULL OR c0 <> 13), c1, c2 BOOLEAN, c3 DECIMAL(10,2) DEFAULT 1.5, c4 INTEGER);
--     INSERT INTO t0 VALUES (1e400, -1, CAST(X'FF' AS TEXT), -2.5, 1.5), ('ção', '1', -1, 1.5, 'São Paulo'), ('abc', 1, -2.5, 9223372036854775807, '😀'), ('+1', 7, 'A', 9.21e18, 0.5), ('1', 7, -3, 1, '0');
--     UPDATE OR REPLACE t0 SET c0 = c2, c3 = c3 WHERE (c0, c4, c4) IN ((c3, c4, c4), (c2, '[a-c]*', c0), (c1, c4, c0));
CREATE TABLE t0(c0 VARCHAR(10) CHECK (c0 IS NULL OR c0 <> 13), c1, c2 BOOLEAN, c3 DECIMAL(10,2) DEFAULT 1.5, c4 INTEGER)
----
INSERT INTO t0 VALUES (1e400, -1, CAST(X'FF' AS TEXT), -2.5, 1.5), ('ção', '1', -1, 1.5, 'São Paulo'), ('abc', 1, -2.5, 9223372036854775807, '😀'), ('+1', 7, 'A', 9.21e18, 0.5), ('1', 7, -3, 1, '0')
----
UPDATE OR REPLACE t0 SET c0 = c2, c3 = c3 WHERE (c0, c4, c4) IN ((c3, c4, c4), (c2, '[a-c]*', c0), (c1, c4, c0))
