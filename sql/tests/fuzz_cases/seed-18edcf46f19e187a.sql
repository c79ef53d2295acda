-- seed 1796319729999026298: OursFailed at statement 2 (memory store)
--     sqlite: Affected(1)
--     asadb:  Err("ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint")
--   shrunk session:
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 BLOB, c2 CLOB);
--     CREATE UNIQUE INDEX i0 ON t1(c1, c1 COLLATE NOCASE);
--     INSERT INTO t1 VALUES (3, '%', 7) ON CONFLICT(c0) DO UPDATE SET c0 = 'Müller' ON CONFLICT(c0, c1) DO NOTHING;
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 BLOB, c2 CLOB)
----
CREATE UNIQUE INDEX i0 ON t1(c1, c1 COLLATE NOCASE)
----
INSERT INTO t1 VALUES (3, '%', 7) ON CONFLICT(c0) DO UPDATE SET c0 = 'Müller' ON CONFLICT(c0, c1) DO NOTHING
