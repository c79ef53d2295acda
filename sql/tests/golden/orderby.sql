# ORDER BY served by the scan: rowid order (either direction, with a rowid
# range) or an ascending index, with no SORT node; everything else sorts.
# Results are checked against SQLite too, so ties are avoided where
# SQLite's tie order depends on its own plan.

statement ok
CREATE TABLE t(id INTEGER PRIMARY KEY, a, b TEXT COLLATE NOCASE, c, d, e)

statement ok
CREATE INDEX ta ON t(a)

statement ok
CREATE INDEX tb ON t(b)

statement ok
CREATE INDEX tcd ON t(c, d)

statement ok
CREATE INDEX tdd ON t(d DESC)

statement ok
INSERT INTO t VALUES (1, 3, 'b', 1, 10, 'x'), (2, NULL, 'A', 1, 5, 'y'), (3, 2.5, 'a', 2, NULL, 'z'), (4, 'z', 'C', NULL, 1, 'w'), (5, x'00', 'B', 2, 7, 'v'), (6, 1, 'c', 1, 6, 'u'), (7, -4, NULL, 3, 2, 't'), (8, 1.0, 'd', 2, 3, 's')

# Rowid order, forward and backward, whole or ranged, with LIMIT.

onlyif asadb
query
EXPLAIN SELECT * FROM t ORDER BY id
----
PROJECT 6 columns
  SCAN t

onlyif asadb
query
EXPLAIN SELECT * FROM t ORDER BY id DESC
----
PROJECT 6 columns
  SCAN t DESC

onlyif asadb
query
EXPLAIN SELECT * FROM t WHERE id > 50 ORDER BY id LIMIT 10
----
PROJECT 6 columns
  LIMIT
    SEARCH t USING ROWID RANGE FILTER

onlyif asadb
query
EXPLAIN SELECT id FROM t WHERE id < 6 ORDER BY rowid DESC, a LIMIT 2 OFFSET 1
----
PROJECT 1 columns
  LIMIT
    SEARCH t USING ROWID RANGE DESC FILTER

query
SELECT id, a FROM t ORDER BY id
----
1|3
2|NULL
3|2.5
4|z
5|x'00'
6|1
7|-4
8|1.0

query
SELECT id FROM t ORDER BY id DESC LIMIT 3
----
8
7
6

query
SELECT id, e FROM t WHERE id > 2 ORDER BY id LIMIT 2 OFFSET 1
----
4|w
5|v

query
SELECT id FROM t WHERE id < 6 ORDER BY rowid DESC, a LIMIT 2 OFFSET 1
----
4
3

# An ascending index in order, NULLs first, numbers, text, blobs; ties
# between 1 and 1.0 in rowid order as SQLite's index scan gives them.

onlyif asadb
query
EXPLAIN SELECT * FROM t ORDER BY a
----
PROJECT 6 columns
  SCAN t USING INDEX ta

onlyif asadb
query
EXPLAIN SELECT id FROM t ORDER BY a, id LIMIT 3
----
PROJECT 1 columns
  LIMIT
    SCAN t USING COVERING INDEX ta

query
SELECT id, a FROM t ORDER BY a
----
2|NULL
7|-4
6|1
8|1.0
3|2.5
1|3
4|z
5|x'00'

query
SELECT id FROM t ORDER BY a LIMIT 3 OFFSET 2
----
6
8
3

onlyif asadb
query
EXPLAIN SELECT c, d FROM t ORDER BY c, d
----
PROJECT 2 columns
  SCAN t USING COVERING INDEX tcd

query
SELECT c, d FROM t ORDER BY c, d
----
NULL|1
1|5
1|6
1|10
2|NULL
2|3
2|7
3|2

# An equality prefix fixes c: d comes in index order.

onlyif asadb
query
EXPLAIN SELECT d FROM t WHERE c = 2 ORDER BY c, d
----
PROJECT 1 columns
  SEARCH t USING COVERING INDEX tcd (1 prefix) FILTER

query
SELECT d FROM t WHERE c = 2 ORDER BY c, d
----
NULL
3
7

onlyif asadb
query
EXPLAIN SELECT id FROM t WHERE c = 1 ORDER BY d LIMIT 2
----
PROJECT 1 columns
  LIMIT
    SEARCH t USING COVERING INDEX tcd (1 prefix) FILTER

query
SELECT id FROM t WHERE c = 1 ORDER BY d LIMIT 2
----
2
6

# A range on the index column.

onlyif asadb
query
EXPLAIN SELECT id FROM t WHERE a > 1 ORDER BY a
----
PROJECT 1 columns
  SEARCH t USING COVERING INDEX ta (1 prefix + range) FILTER

query
SELECT id FROM t WHERE a > 1 ORDER BY a
----
3
1
4
5

# Everything else keeps its sort.

onlyif asadb
query
EXPLAIN SELECT * FROM t ORDER BY e
----
SORT 1 keys
  PROJECT 6 columns
    SCAN t

onlyif asadb
query
EXPLAIN SELECT * FROM t ORDER BY a + 1
----
PROJECT 6 columns
  SORT 1 keys
    PROJECT 7 columns
      SCAN t

onlyif asadb
query
EXPLAIN SELECT * FROM t ORDER BY a COLLATE NOCASE
----
SORT 1 keys
  PROJECT 6 columns
    SCAN t

onlyif asadb
query
EXPLAIN SELECT * FROM t ORDER BY b
----
SORT 1 keys
  PROJECT 6 columns
    SCAN t

onlyif asadb
query
EXPLAIN SELECT * FROM t ORDER BY a DESC
----
SORT 1 keys
  PROJECT 6 columns
    SCAN t

onlyif asadb
query
EXPLAIN SELECT * FROM t ORDER BY d DESC
----
SORT 1 keys
  PROJECT 6 columns
    SCAN t

onlyif asadb
query
EXPLAIN SELECT * FROM t ORDER BY a NULLS LAST
----
SORT 1 keys
  PROJECT 6 columns
    SCAN t

onlyif asadb
query
EXPLAIN SELECT * FROM t ORDER BY c, e
----
SORT 2 keys
  PROJECT 6 columns
    SCAN t

onlyif asadb
query
EXPLAIN SELECT DISTINCT a FROM t ORDER BY a
----
SORT 1 keys
  DISTINCT
    PROJECT 1 columns
      SCAN t

onlyif asadb
query
EXPLAIN SELECT x.id FROM t AS x, t AS y WHERE x.id = y.id ORDER BY x.id
----
SORT 1 keys
  PROJECT 1 columns
    INDEX NESTED LOOP JOIN
      SCAN t
      SEARCH t USING ROWID IN (1 values) FILTER

# A NOCASE column sorts NOCASE (its own collation), as in SQLite.

query
SELECT id, b FROM t WHERE b IS NOT NULL ORDER BY b, id
----
2|A
3|a
1|b
5|B
4|C
6|c
8|d

query
SELECT id FROM t WHERE id <> 8 ORDER BY a DESC
----
5
4
1
3
6
7
2

# min()/max() alone read one row from the right end of the rowid order or
# of an ascending index (NULLs skipped); bare columns come from that row.

onlyif asadb
query
EXPLAIN SELECT max(id) FROM t
----
PROJECT 1 columns
  AGGREGATE 0 keys, 1 aggregates
    LIMIT
      SCAN t DESC

onlyif asadb
query
EXPLAIN SELECT min(a), id FROM t
----
PROJECT 2 columns
  AGGREGATE 0 keys, 1 aggregates
    LIMIT
      SCAN t USING COVERING INDEX ta

onlyif asadb
query
EXPLAIN SELECT max(a) FROM t
----
PROJECT 1 columns
  AGGREGATE 0 keys, 1 aggregates
    SCAN t

onlyif asadb
query
EXPLAIN SELECT max(id) FROM t WHERE id < 5
----
PROJECT 1 columns
  AGGREGATE 0 keys, 1 aggregates
    LIMIT
      SEARCH t USING ROWID RANGE DESC FILTER

onlyif asadb
query
EXPLAIN SELECT min(a) FROM t WHERE a > 1
----
PROJECT 1 columns
  AGGREGATE 0 keys, 1 aggregates
    LIMIT
      SEARCH t USING COVERING INDEX ta (1 prefix + range) FILTER

onlyif asadb
query
EXPLAIN SELECT min(a) FROM t WHERE id > 2
----
PROJECT 1 columns
  AGGREGATE 0 keys, 1 aggregates
    SEARCH t USING ROWID RANGE FILTER

onlyif asadb
query
EXPLAIN SELECT min(b) FROM t
----
PROJECT 1 columns
  AGGREGATE 0 keys, 1 aggregates
    SCAN t

query
SELECT max(id), min(id) FROM t
----
8|1

query
SELECT max(id), e FROM t
----
8|s

query
SELECT min(id) + 1, e FROM t
----
2|x

query
SELECT min(a), id FROM t
----
-4|7

query
SELECT min(c), max(a), min(b) FROM t
----
1|x'00'|A

query
SELECT min(a) FROM t WHERE a > 100
----
z

query
SELECT min(a) FROM t WHERE id = 2
----
NULL

query
SELECT max(id), a FROM t WHERE id < 5 AND id > 1
----
4|z

query
SELECT min(a), id FROM t WHERE a > 1
----
2.5|3

query
SELECT min(a), id FROM t WHERE a >= 1 AND a < 2
----
1|6

query
SELECT min(a) FROM t WHERE a > 'zz'
----
x'00'

query
SELECT min(a) FROM t WHERE a > x'00'
----
NULL

statement ok
CREATE TABLE empty(id INTEGER PRIMARY KEY, v)

statement ok
CREATE INDEX ev ON empty(v)

query
SELECT max(id), min(v) FROM empty
----
NULL|NULL

query
SELECT max(id) FROM empty
----
NULL

statement ok
INSERT INTO empty VALUES (1, NULL), (2, NULL)

query
SELECT min(v), max(id) FROM empty
----
NULL|2

query
SELECT min(v) FROM empty
----
NULL
