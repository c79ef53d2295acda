-- seed 1796411371510231845: Rows at statement 3 (memory store)
--     sqlite: 2 rows
--       [Real(0.0), Integer(9223372036854775806)]
--       [Real(0.0), Integer(9223372036854775806)]
--     asadb:  2 rows
--       [Integer(0), Integer(9223372036854775806)]
--       [Integer(0), Integer(9223372036854775806)]
--   shrunk session:
--     CREATE TABLE t1(c0 BIGINT COLLATE RTRIM, c1 BOOLEAN, PRIMARY KEY (c1)) WITHOUT ROWID;
--     REPLACE INTO t1 VALUES ('0x10', '😀'), (X'41', 'a '), (-1e308, '😀');
--     CREATE INDEX i0 ON t1(c0);
--     SELECT min((a00.c0 - a00.c0)) OVER () AS "col0", 9223372036854775806 FROM t1 AS a00;
CREATE TABLE t1(c0 BIGINT COLLATE RTRIM, c1 BOOLEAN, PRIMARY KEY (c1)) WITHOUT ROWID
----
REPLACE INTO t1 VALUES ('0x10', '😀'), (X'41', 'a '), (-1e308, '😀')
----
CREATE INDEX i0 ON t1(c0)
----
SELECT min((a00.c0 - a00.c0)) OVER () AS "col0", 9223372036854775806 FROM t1 AS a00
