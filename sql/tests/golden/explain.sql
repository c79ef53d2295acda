# EXPLAIN prints the plan (our format, not SQLite's bytecode).

statement ok
CREATE TABLE t(a INTEGER PRIMARY KEY, b)

statement ok
CREATE INDEX tb ON t(b)

onlyif asadb
query
EXPLAIN SELECT a FROM t WHERE b = 3
----
PROJECT 1 columns
  SEARCH t USING COVERING INDEX tb (1 prefix) FILTER

onlyif asadb
query
EXPLAIN SELECT a FROM t WHERE a = 3
----
PROJECT 1 columns
  SEARCH t USING ROWID IN (1 values) FILTER

onlyif asadb
query
EXPLAIN SELECT * FROM t AS x, t AS y WHERE x.a = y.b
----
PROJECT 4 columns
  INDEX NESTED LOOP JOIN
    SCAN t
    SEARCH t USING ROWID IN (1 values) FILTER

# An equality no lookup serves (no bare column on either side) hashes.

onlyif asadb
query
EXPLAIN SELECT * FROM t AS x, t AS y WHERE x.b + 0 = y.b + 0
----
PROJECT 4 columns
  HASH JOIN
    SCAN t
    SCAN t
