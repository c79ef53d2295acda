-- seed 1796414815979409181: OursSucceeded at statement 2 (memory store)
--     sqlite: Err("UNIQUE constraint failed: t1.c2")
--     asadb:  Affected(1)
--   shrunk session:
--     CREATE TABLE t1(c0 FLOAT, c1 TEXT, c2 BOOLEAN UNIQUE, PRIMARY KEY (c1)) WITHOUT ROWID;
--     INSERT INTO t1 VALUES (2, 10, 0x10), (9210000000000000000, 1.0, 6), ('São Paulo', 1234567890123456789012345678901234567890, 8), ('a', 0, 'abc'), ('ABC', 'y ', 'y '), (-5, X'C3A7', '');
--     INSERT OR REPLACE INTO t1 VALUES (3, 0, 6) ON CONFLICT DO UPDATE SET c2 = excluded.c2;
CREATE TABLE t1(c0 FLOAT, c1 TEXT, c2 BOOLEAN UNIQUE, PRIMARY KEY (c1)) WITHOUT ROWID
----
INSERT INTO t1 VALUES (2, 10, 0x10), (9210000000000000000, 1.0, 6), ('São Paulo', 1234567890123456789012345678901234567890, 8), ('a', 0, 'abc'), ('ABC', 'y ', 'y '), (-5, X'C3A7', '')
----
INSERT OR REPLACE INTO t1 VALUES (3, 0, 6) ON CONFLICT DO UPDATE SET c2 = excluded.c2
