-- seed 1796414815979410606: Rows at statement 4 (memory store)
--     sqlite: 4 rows
--       [Real(-0.0)]
--       [Real(-0.0)]
--       [Real(-0.0)]
--       [Real(-0.0)]
--     asadb:  5 rows
--       [Real(-0.0)]
--       [Real(-0.0)]
--       [Real(-0.0)]
--       [Real(-0.0)]
--       [Real(-0.0)]
--   shrunk session:
--     CREATE TABLE t0(c0 CLOB NOT NULL DEFAULT 0, c1 BIGINT, PRIMARY KEY (c1)) WITHOUT ROWID;
--     INSERT OR IGNORE INTO t0 VALUES (-9223372036854775807, X'00');
--     CREATE TABLE t1(c0 FLOAT, c1 REAL, c2 TEXT COLLATE NOCASE, c3 FLOAT);
--     INSERT INTO t1 VALUES (' 12abc', X'C3A7', 9.2e18, X'4142'), (1, -9223372036854775808, 1e3, X'4142'), ('9223372036854775808', '%b%', 1e400, 10), ('x', 'x😀y', '-1', 'X'), (NULL, 'Müller', 7, '%');
--     SELECT -0.0 FROM t1 AS a00 WHERE a00.c1 NOT IN (SELECT upper(a10.c0) FROM t0 AS a10) ORDER BY 1 DESC;
CREATE TABLE t0(c0 CLOB NOT NULL DEFAULT 0, c1 BIGINT, PRIMARY KEY (c1)) WITHOUT ROWID
----
INSERT OR IGNORE INTO t0 VALUES (-9223372036854775807, X'00')
----
CREATE TABLE t1(c0 FLOAT, c1 REAL, c2 TEXT COLLATE NOCASE, c3 FLOAT)
----
INSERT INTO t1 VALUES (' 12abc', X'C3A7', 9.2e18, X'4142'), (1, -9223372036854775808, 1e3, X'4142'), ('9223372036854775808', '%b%', 1e400, 10), ('x', 'x😀y', '-1', 'X'), (NULL, 'Müller', 7, '%')
----
SELECT -0.0 FROM t1 AS a00 WHERE a00.c1 NOT IN (SELECT upper(a10.c0) FROM t0 AS a10) ORDER BY 1 DESC
