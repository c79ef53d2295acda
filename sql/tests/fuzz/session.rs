//! The session generator: random schemas, values at the edges of every
//! storage class, DML interleaved with queries of every shape the engine
//! accepts. Seeded and deterministic: a seed names a session.

use super::sql::{Sql, alt, cat, join, t};

/// A small deterministic generator (splitmix64).
#[derive(Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9e37_79b9_7f4a_7c15)
    }
    pub fn u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.u64() % n.max(1) as u64) as usize
    }
    /// True with probability `p` percent.
    pub fn pct(&mut self, p: usize) -> bool {
        self.below(100) < p
    }
    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

/// Literals at the edges: integer limits and neighbours, reals near them,
/// huge and tiny reals, -0.0, long decimals, hex, numeric-looking text,
/// case and space variants for the collations, multi-byte UTF-8, blobs
/// (and text made of blob bytes, some not UTF-8).
const LITERALS: &[&str] = &[
    "NULL",
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "10",
    "-5",
    "100",
    "9223372036854775807",
    "-9223372036854775808",
    "9223372036854775806",
    "-9223372036854775807",
    "9223372036854775808",
    "4294967296",
    "2147483647",
    "0.5",
    "1.5",
    "-2.5",
    "1.0",
    "0.0",
    "-0.0",
    "3.14159",
    "1e3",
    "9.2e18",
    "9.21e18",
    "9210000000000000000",
    "-9.3e18",
    "9.223372036854775807e18",
    "1e308",
    "-1e308",
    "1e-308",
    "1e400",
    "0.151806728945089886206923794224573882182e-34",
    "1234567890123456789012345678901234567890",
    "0x10",
    "0x7FFFFFFFFFFFFFFF",
    "0xFFFFFFFFFFFFFFFF",
    "''",
    "'0'",
    "'1'",
    "' 1'",
    "'1 '",
    "'+1'",
    "'-1'",
    "'1e5'",
    "'1.5'",
    "'0x10'",
    "' 12abc'",
    "'9223372036854775808'",
    "'abc'",
    "'ABC'",
    "'Abc'",
    "'a'",
    "'A'",
    "'a '",
    "'b'",
    "'%'",
    "'_'",
    "'a%'",
    "'%b%'",
    "'*'",
    "'[a-c]*'",
    "'São Paulo'",
    "'ção'",
    "'😀'",
    "'x😀y'",
    "'Müller'",
    "X''",
    "X'00'",
    "X'41'",
    "X'4142'",
    "X'FF'",
    "X'C3A7'",
];

/// Declared column types, one or more per affinity.
const TYPES: &[&str] = &[
    "INTEGER",
    "INT",
    "BIGINT",
    "REAL",
    "FLOAT",
    "DOUBLE",
    "TEXT",
    "VARCHAR(10)",
    "CLOB",
    "BLOB",
    "NUMERIC",
    "DECIMAL(10,2)",
    "BOOLEAN",
    "",
];

/// Scalar functions with their argument counts.
const FUNCS: &[(&str, usize)] = &[
    ("abs", 1),
    ("char", 2),
    ("coalesce", 2),
    ("coalesce", 3),
    ("ifnull", 2),
    ("hex", 1),
    ("iif", 3),
    ("instr", 2),
    ("length", 1),
    ("lower", 1),
    ("upper", 1),
    ("ltrim", 1),
    ("rtrim", 2),
    ("trim", 1),
    ("trim", 2),
    ("max", 2),
    ("min", 2),
    ("max", 3),
    ("nullif", 2),
    ("quote", 1),
    ("replace", 3),
    ("round", 1),
    ("round", 2),
    ("sign", 1),
    ("substr", 2),
    ("substr", 3),
    ("typeof", 1),
    ("unicode", 1),
    ("unhex", 1),
    ("zeroblob", 1),
    ("printf", 2),
    ("format", 3),
    ("concat", 2),
    ("concat_ws", 3),
    ("octet_length", 1),
    ("likely", 1),
    ("like", 2),
    ("glob", 2),
];

/// Aggregates whose result is the order rows reach them in.
const ORDER_DEPENDENT_AGGS: &[&str] = &["group_concat", "json_group_array"];
const AGGS: &[&str] =
    &["count", "sum", "total", "avg", "min", "max", "group_concat", "json_group_array"];

/// Time values for the date and time functions (never 'now': the two
/// engines' clocks differ).
const TIME_VALUES: &[&str] = &[
    "'2024-02-29'",
    "'2024-02-29 13:45:10.123'",
    "'2023-12-31T23:59:59'",
    "'12:30'",
    "'1970-01-01 00:00:00Z'",
    "'2000-01-01 12:00:00+05:30'",
    "'0000-01-01'",
    "'9999-12-31 23:59:59.999'",
    "'2024-13-01'",
    "'2024-02-30'",
    "'not a date'",
    "2460000.5",
    "0",
    "1700000000",
    "-1",
    "'1700000000'",
];

const TIME_MODIFIERS: &[&str] = &[
    "'+1 day'",
    "'-3 hours'",
    "'+90 minutes'",
    "'+1.5 seconds'",
    "'+1 month'",
    "'-1 year'",
    "'+14 months'",
    "'start of month'",
    "'start of year'",
    "'start of day'",
    "'weekday 0'",
    "'weekday 3'",
    "'unixepoch'",
    "'julianday'",
    "'auto'",
    "'subsec'",
    "'ceiling'",
    "'floor'",
    "'+0001-02-03 04:05:06'",
    "'bogus'",
];

const TIME_FORMATS: &[&str] = &[
    "'%Y-%m-%d %H:%M:%S'",
    "'%j %w %W %U %u %V %G %g'",
    "'%s %f %J'",
    "'%e %k %l %p %P %I'",
    "'%F %T %R %D'",
    "'%%'",
    "'%Q'",
];

/// Window functions whose results do not depend on the order of rows
/// that tie under the window's ORDER BY (both engines may order ties
/// differently).
const WINDOW_FUNCS: &[&str] = &["rank()", "dense_rank()", "percent_rank()", "cume_dist()"];
const WINDOW_AGGS: &[&str] = &["count", "min", "max"];

#[derive(Clone, Debug)]
pub struct Column {
    pub name: String,
}

#[derive(Clone, Debug)]
pub struct Table {
    pub name: String,
    pub columns: Vec<Column>,
    pub rowid: bool,
}

/// What the generator knows of the schema it created.
pub struct Gen {
    pub rng: Rng,
    pub tables: Vec<Table>,
    indexes: Vec<String>,
    next_index: usize,
    in_txn: bool,
    /// Above 0 while generating where the plan decides whether SQLite
    /// evaluates an expression — predicates (WHERE, ON, HAVING, CASE WHEN)
    /// and SELECTs that join — so JSON there is well-formed (see
    /// `json.rs`).
    pub json_wellformed: usize,
}

/// A column reference in scope: its SQL text.
type Scope = Vec<String>;

/// Whether a SELECT may, must or must not aggregate.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Agg {
    None,
    Allow,
    Force,
}

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen {
            rng: Rng::new(seed),
            tables: Vec::new(),
            indexes: Vec::new(),
            next_index: 0,
            in_txn: false,
            json_wellformed: 0,
        }
    }

    /// A whole session: schema, rows, then `n` statements.
    pub fn session(&mut self, n: usize) -> Vec<Sql> {
        let mut out = Vec::new();
        let ntables = 2 + self.rng.below(2);
        for i in 0..ntables {
            out.push(self.create_table(i));
            for _ in 0..1 + self.rng.below(3) {
                out.push(self.insert_values(i));
            }
            if self.rng.pct(40) {
                out.push(self.create_index());
            }
        }
        for _ in 0..n {
            out.push(self.statement());
        }
        if self.in_txn {
            out.push(t("COMMIT"));
        }
        out
    }

    fn literal(&mut self) -> Sql {
        let lit = *self.rng.pick(LITERALS);
        if self.rng.pct(4) {
            // Text made of blob bytes (some not UTF-8).
            return t(format!(
                "CAST({} AS TEXT)",
                self.rng.pick(&["X'FF'", "X'C3'", "X'41FF42'", "X'E282AC'"])
            ));
        }
        t(lit)
    }

    fn small_int(&mut self) -> Sql {
        t(format!("{}", self.rng.below(12) as i64 - 3))
    }

    fn create_table(&mut self, i: usize) -> Sql {
        let name = format!("t{i}");
        let ncols = 2 + self.rng.below(4);
        let mut cols = Vec::new();
        let mut defs = Vec::new();
        let ipk = self.rng.pct(35);
        let without_rowid = !ipk && self.rng.pct(12);
        let mut pk_col = None;
        for c in 0..ncols {
            let cname = format!("c{c}");
            let mut def = cname.clone();
            if c == 0 && ipk {
                def.push_str(" INTEGER PRIMARY KEY");
            } else {
                let ty = *self.rng.pick(TYPES);
                if !ty.is_empty() {
                    def.push(' ');
                    def.push_str(ty);
                }
                if self.rng.pct(15) {
                    def.push_str(if self.rng.pct(60) {
                        " COLLATE NOCASE"
                    } else {
                        " COLLATE RTRIM"
                    });
                }
                if self.rng.pct(8) {
                    def.push_str(" NOT NULL DEFAULT 0");
                } else if self.rng.pct(8) {
                    def.push_str(" UNIQUE");
                }
                if self.rng.pct(8) {
                    def.push_str(&format!(
                        " DEFAULT {}",
                        self.rng.pick(&["0", "'x'", "1.5", "NULL", "-1"])
                    ));
                }
                if self.rng.pct(5) {
                    def.push_str(&format!(" CHECK ({cname} IS NULL OR {cname} <> 13)"));
                }
                if without_rowid && pk_col.is_none() && c == 1 {
                    pk_col = Some(cname.clone());
                }
            }
            defs.push(def);
            cols.push(Column { name: cname });
        }
        if without_rowid {
            let pk = pk_col.unwrap_or_else(|| "c0".into());
            defs.push(format!("PRIMARY KEY ({pk})"));
        } else if self.rng.pct(10) {
            defs.push("UNIQUE (c0, c1)".into());
        }
        let sql = format!(
            "CREATE TABLE {name}({}){}",
            defs.join(", "),
            if without_rowid { " WITHOUT ROWID" } else { "" }
        );
        self.tables.push(Table { name, columns: cols, rowid: !without_rowid });
        t(sql)
    }

    fn table(&mut self) -> usize {
        self.rng.below(self.tables.len())
    }

    fn row_values(&mut self, ncols: usize) -> Sql {
        let vals: Vec<Sql> = (0..ncols).map(|_| self.value_for_row()).collect();
        cat(vec![t("("), join(vals, ", "), t(")")])
    }

    fn value_for_row(&mut self) -> Sql {
        if self.rng.pct(75) {
            return self.literal();
        }
        if self.rng.pct(50) {
            self.small_int()
        } else {
            t(format!("'{}'", self.rng.pick(&["x", "y", "X", "y ", "10", "abc"])))
        }
    }

    fn insert_values(&mut self, ti: usize) -> Sql {
        let tb = self.tables[ti].clone();
        let n = 1 + self.rng.below(8);
        let rows: Vec<Sql> = (0..n).map(|_| self.row_values(tb.columns.len())).collect();
        let verb = self.insert_verb();
        cat(vec![
            t(format!("{verb} INTO {} VALUES ", tb.name)),
            alt(join(rows.clone(), ", "), vec![rows[0].clone()]),
        ])
    }

    fn insert_verb(&mut self) -> &'static str {
        const VERBS: [&str; 6] =
            ["INSERT", "INSERT", "INSERT", "INSERT OR REPLACE", "INSERT OR IGNORE", "REPLACE"];
        VERBS[self.rng.below(VERBS.len())]
    }

    fn create_index(&mut self) -> Sql {
        let ti = self.table();
        let tb = self.tables[ti].clone();
        let name = format!("i{}", self.next_index);
        self.next_index += 1;
        let n = 1 + self.rng.below(2.min(tb.columns.len()));
        let mut cols = Vec::new();
        for _ in 0..n {
            let c = &self.rng.pick(&tb.columns).name;
            let mut s = c.clone();
            if self.rng.pct(20) {
                s.push_str(" COLLATE NOCASE");
            }
            if self.rng.pct(30) {
                s.push_str(" DESC");
            }
            cols.push(s);
        }
        let unique = self.rng.pct(20);
        let partial = if self.rng.pct(10) {
            format!(" WHERE {} IS NOT NULL", tb.columns[0].name)
        } else {
            String::new()
        };
        self.indexes.push(name.clone());
        t(format!(
            "CREATE {}INDEX {name} ON {}({}){partial}",
            if unique { "UNIQUE " } else { "" },
            tb.name,
            cols.join(", ")
        ))
    }

    fn statement(&mut self) -> Sql {
        let r = self.rng.below(100);
        match r {
            0..=54 => self.query_stmt(),
            55..=62 => {
                let ti = self.table();
                self.insert_values(ti)
            }
            63..=64 => self.insert_select(),
            65..=66 => self.upsert(),
            67..=71 => self.update(),
            72..=73 => self.update_from(),
            74..=75 => self.with_dml(),
            76..=81 => self.delete(),
            82..=85 => self.create_index(),
            86..=87 => match self.indexes.pop() {
                Some(i) => t(format!("DROP INDEX {i}")),
                None => self.query_stmt(),
            },
            88..=91 => {
                if self.in_txn {
                    self.in_txn = false;
                    t(*self.rng.pick(&["COMMIT", "ROLLBACK", "END"]))
                } else {
                    self.in_txn = true;
                    t(*self.rng.pick(&["BEGIN", "BEGIN TRANSACTION", "BEGIN IMMEDIATE"]))
                }
            }
            92..=93 => t(*self.rng.pick(&[
                "SAVEPOINT s1",
                "RELEASE s1",
                "ROLLBACK TO s1",
                "ROLLBACK\nTO s1",
            ])),
            _ => self.query_stmt(),
        }
    }

    fn insert_select(&mut self) -> Sql {
        let ti = self.table();
        let tb = self.tables[ti].clone();
        let n = tb.columns.len();
        let q = self.select_core(n, &Vec::new(), 1, Agg::None);
        // Rows go in a fixed order: rowids and conflicts depend on it.
        let keys: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
        let verb = self.insert_verb();
        cat(vec![
            t(format!("{verb} INTO {} ", tb.name)),
            q,
            t(format!(" ORDER BY {}", keys.join(", "))),
        ])
    }

    /// `INSERT … ON CONFLICT [target] DO NOTHING | DO UPDATE SET …
    /// [WHERE …]`, sometimes with a second clause and RETURNING. The
    /// target may name no unique constraint (an error on both sides).
    fn upsert(&mut self) -> Sql {
        let ti = self.table();
        let tb = self.tables[ti].clone();
        let n = 1 + self.rng.below(4);
        let rows: Vec<Sql> = (0..n).map(|_| self.row_values(tb.columns.len())).collect();
        let mut scope: Scope = tb.columns.iter().map(|c| c.name.clone()).collect();
        scope.extend(tb.columns.iter().map(|c| format!("excluded.{}", c.name)));
        let mut clauses = Vec::new();
        let nclauses = 1 + usize::from(self.rng.pct(25));
        for k in 0..nclauses {
            let last = k + 1 == nclauses;
            let target = match self.rng.below(4) {
                0 if last => String::new(),
                0 | 1 => "(c0)".into(),
                2 => "(c1)".into(),
                _ => "(c0, c1)".into(),
            };
            let action = if self.rng.pct(35) {
                t("DO NOTHING")
            } else {
                let c = self.rng.pick(&tb.columns).name.clone();
                let e = self.expr(2, &scope, &Vec::new());
                let mut parts = vec![t(format!("DO UPDATE SET {c} = ")), e];
                if self.rng.pct(30) {
                    let w = self.pred(1, &scope, &Vec::new());
                    parts.push(alt(cat(vec![t(" WHERE "), w]), vec![t("")]));
                }
                cat(parts)
            };
            clauses.push(cat(vec![t(format!(" ON CONFLICT{target} ")), action]));
        }
        let verb = *self.rng.pick(&["INSERT", "INSERT", "INSERT OR IGNORE", "INSERT OR REPLACE"]);
        let mut parts = vec![
            t(format!("{verb} INTO {} VALUES ", tb.name)),
            alt(join(rows.clone(), ", "), vec![rows[0].clone()]),
            cat(clauses),
        ];
        if self.rng.pct(20) {
            parts.push(t(" RETURNING *"));
        }
        cat(parts)
    }

    /// `UPDATE t SET … FROM …`: the SET list reads the target only (or a
    /// one-row FROM), so which matching row is used does not matter.
    fn update_from(&mut self) -> Sql {
        let ti = self.table();
        let tb = self.tables[ti].clone();
        let oi = self.table();
        let ob = self.tables[oi].clone();
        let mine: Scope = tb.columns.iter().map(|c| format!("{}.{}", tb.name, c.name)).collect();
        let one_row = self.rng.pct(30);
        let (from, mut both) = if one_row {
            (format!("(SELECT count(*) AS n, max(c0) AS m FROM {}) AS o", ob.name), mine.clone())
        } else {
            let both: Scope = mine
                .iter()
                .cloned()
                .chain(ob.columns.iter().map(|c| format!("o.{}", c.name)))
                .collect();
            (format!("{} AS o", ob.name), both)
        };
        let set_scope = if one_row {
            both.push("o.n".into());
            both.push("o.m".into());
            both.clone()
        } else {
            mine.clone()
        };
        let c = self.rng.pick(&tb.columns).name.clone();
        let e = self.expr(2, &set_scope, &Vec::new());
        let w = self.pred(2, &both, &Vec::new());
        cat(vec![
            t(format!("UPDATE {} SET {c} = ", tb.name)),
            e,
            t(format!(" FROM {from} WHERE ")),
            w,
        ])
    }

    /// `WITH … UPDATE`, `WITH … DELETE`, `WITH … INSERT`.
    fn with_dml(&mut self) -> Sql {
        let ti = self.table();
        let tb = self.tables[ti].clone();
        let si = self.table();
        let sb = self.tables[si].clone();
        let src = self.rng.pick(&sb.columns).name.clone();
        let cte = t(format!("WITH w(x) AS (SELECT {src} FROM {}) ", sb.name));
        let c = self.rng.pick(&tb.columns).name.clone();
        let scope: Scope = tb.columns.iter().map(|c| c.name.clone()).collect();
        match self.rng.below(3) {
            0 => {
                let e = self.expr(1, &scope, &Vec::new());
                cat(vec![
                    cte,
                    t(format!("UPDATE {} SET {c} = ", tb.name)),
                    e,
                    t(format!(" WHERE {c} IN (SELECT x FROM w)")),
                ])
            }
            1 => cat(vec![
                cte,
                t(format!(
                    "DELETE FROM {} WHERE {c} NOT IN (SELECT x FROM w WHERE x IS NOT NULL)",
                    tb.name
                )),
            ]),
            _ => {
                let n = tb.columns.len();
                let q = self.select_core(n, &Vec::new(), 1, Agg::None);
                let keys: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
                let verb = self.insert_verb();
                cat(vec![
                    t("WITH w AS ("),
                    q,
                    t(format!(
                        ") {verb} INTO {} SELECT * FROM w ORDER BY {}",
                        tb.name,
                        keys.join(", ")
                    )),
                ])
            }
        }
    }

    fn update(&mut self) -> Sql {
        let ti = self.table();
        let tb = self.tables[ti].clone();
        let scope: Scope = tb.columns.iter().map(|c| c.name.clone()).collect();
        let n = 1 + self.rng.below(2);
        let mut sets = Vec::new();
        for _ in 0..n {
            let c = self.rng.pick(&tb.columns).name.clone();
            let e = self.expr(2, &scope, &Vec::new());
            sets.push(cat(vec![t(format!("{c} = ")), e]));
        }
        let verb = *self.rng.pick(&[
            "UPDATE",
            "UPDATE",
            "UPDATE",
            "UPDATE",
            "UPDATE OR REPLACE",
            "UPDATE OR IGNORE",
        ]);
        let mut parts = vec![t(format!("{verb} {} SET ", tb.name)), join(sets, ", ")];
        if self.rng.pct(80) {
            let w = self.pred(2, &scope, &Vec::new());
            parts.push(alt(cat(vec![t(" WHERE "), w]), vec![t("")]));
        }
        cat(parts)
    }

    fn delete(&mut self) -> Sql {
        let ti = self.table();
        let tb = self.tables[ti].clone();
        let scope: Scope = tb.columns.iter().map(|c| c.name.clone()).collect();
        let w = if self.rng.pct(30) {
            let c = self.rng.pick(&tb.columns).name.clone();
            let items: Vec<Sql> = (0..1 + self.rng.below(4)).map(|_| self.literal()).collect();
            cat(vec![t(format!("{c} IN (")), join(items, ", "), t(")")])
        } else {
            self.pred(2, &scope, &Vec::new())
        };
        cat(vec![t(format!("DELETE FROM {} WHERE ", tb.name)), w])
    }

    /// A query statement.
    fn query_stmt(&mut self) -> Sql {
        let ncols = 1 + self.rng.below(3);
        let q = self.query(ncols, &Vec::new(), 0);
        if self.rng.pct(35) {
            // ORDER BY every column: the order is fixed up to ties.
            let keys: Vec<String> = (1..=ncols)
                .map(|i| format!("{i}{}", if self.rng.pct(40) { " DESC" } else { "" }))
                .collect();
            let mut parts = vec![q, t(format!(" ORDER BY {}", keys.join(", ")))];
            if self.rng.pct(40) {
                parts.push(t(format!(" LIMIT {}", self.rng.below(6))));
                if self.rng.pct(40) {
                    parts.push(t(format!(" OFFSET {}", self.rng.below(4))));
                }
            }
            return cat(parts);
        }
        q
    }

    /// A query of `ncols` columns: a select or a compound of selects.
    fn query(&mut self, ncols: usize, outer: &Scope, depth: usize) -> Sql {
        let first = self.select_core(ncols, outer, depth, Agg::Allow);
        if depth < 2 && self.rng.pct(15) {
            let op = *self.rng.pick(&[" UNION ", " UNION ALL ", " INTERSECT ", " EXCEPT "]);
            let second = self.select_core(ncols, outer, depth + 1, Agg::Allow);
            return alt(cat(vec![first.clone(), t(op), second.clone()]), vec![first, second]);
        }
        first
    }

    /// FROM items: tables (with aliases) and joins; returns the clause, the
    /// columns in scope, and whether it joins (then `self.json_wellformed`
    /// counts it until the caller's SELECT is complete).
    fn from(&mut self, depth: usize) -> (Sql, Scope, bool) {
        let n = if depth > 0 { 1 } else { 1 + self.rng.below(3) };
        if n > 1 {
            self.json_wellformed += 1;
        }
        let mut scope = Vec::new();
        let mut parts = Vec::new();
        let mut first = None;
        for k in 0..n {
            let ti = self.table();
            let tb = self.tables[ti].clone();
            let alias = format!("a{depth}{k}");
            let (item, cols) = if self.rng.pct(8) {
                self.json_from_item(&alias, &scope)
            } else {
                let cols = tb.columns.iter().map(|c| format!("{alias}.{}", c.name)).collect();
                (t(format!("{} AS {alias}", tb.name)), cols)
            };
            if k == 0 {
                first = Some((item.clone(), cols.clone()));
                parts.push(item);
                scope.extend(cols);
                continue;
            }
            let mut both = scope.clone();
            both.extend(cols.clone());
            let kind = *self.rng.pick(&[
                ", ",
                " JOIN ",
                " LEFT JOIN ",
                " INNER JOIN ",
                " CROSS JOIN ",
                " LEFT OUTER JOIN ",
                " RIGHT JOIN ",
                " RIGHT OUTER JOIN ",
                " FULL JOIN ",
                " FULL OUTER JOIN ",
            ]);
            if kind == ", " || kind == " CROSS JOIN " {
                parts.push(t(kind));
                parts.push(item);
            } else {
                let on = if self.rng.pct(15) {
                    t(*self.rng.pick(&["0", "1", "NULL"]))
                } else if self.rng.pct(60) {
                    let l = self.rng.pick(&scope).clone();
                    let r = self.rng.pick(&cols).clone();
                    t(format!("{l} = {r}"))
                } else {
                    self.pred(1, &both, &Vec::new())
                };
                parts.push(t(kind));
                parts.push(item);
                parts.push(t(" ON "));
                parts.push(on);
            }
            scope = both;
        }
        let (f0, c0) = first.expect("one table");
        if n > 1 {
            return (alt(cat(parts), vec![f0]), scope, true);
        }
        let _ = c0;
        (cat(parts), scope, false)
    }

    /// One SELECT with `ncols` result columns.
    fn select_core(&mut self, ncols: usize, outer: &Scope, depth: usize, agg: Agg) -> Sql {
        let (from, scope, joins) = self.from(depth);
        let grouped = agg == Agg::Allow && self.rng.pct(25);
        let aggregate = agg == Agg::Force || (agg == Agg::Allow && (grouped || self.rng.pct(12)));
        let mut items = Vec::new();
        let group_keys: Vec<String> = if grouped {
            (0..1 + self.rng.below(2)).map(|_| self.rng.pick(&scope).clone()).collect()
        } else {
            Vec::new()
        };
        for i in 0..ncols {
            let e = if aggregate {
                if grouped && i == 0 {
                    t(group_keys[0].clone())
                } else if self.rng.pct(70) {
                    self.agg_call(&scope, outer, depth == 0)
                } else if grouped {
                    t(self.rng.pick(&group_keys).clone())
                } else {
                    self.agg_call(&scope, outer, depth == 0)
                }
            } else if self.rng.pct(8) && !scope.is_empty() {
                self.window_call(&scope, outer)
            } else {
                self.expr(2, &scope, outer)
            };
            if self.rng.pct(10) {
                let name = *self.rng.pick(&["x", "São", "😀", "Müller", "名前", "col"]);
                items.push(cat(vec![e, t(format!(" AS \"{name}{i}\""))]));
            } else {
                items.push(e);
            }
        }
        let distinct = if self.rng.pct(12) { "DISTINCT " } else { "" };
        let mut parts = vec![t(format!("SELECT {distinct}")), join(items, ", "), t(" FROM "), from];
        if self.rng.pct(60) {
            let w = self.pred(2, &scope, outer);
            parts.push(alt(cat(vec![t(" WHERE "), w]), vec![t("")]));
        }
        if grouped {
            parts.push(t(format!(" GROUP BY {}", group_keys.join(", "))));
            if self.rng.pct(30) {
                let a = self.agg_call(&scope, outer, false);
                let v = self.literal();
                parts.push(alt(cat(vec![t(" HAVING "), a, t(" > "), v]), vec![t("")]));
            }
        }
        if joins {
            self.json_wellformed -= 1;
        }
        cat(parts)
    }

    /// An aggregate call. `group_concat` only where its result is a row of
    /// the answer (`shown`): the order of its pieces is the order rows
    /// reach it, which SQL leaves to the plan, so it may not feed a
    /// comparison, a subquery's value or a set operation.
    fn agg_call(&mut self, scope: &Scope, outer: &Scope, shown: bool) -> Sql {
        let name = loop {
            let name = *self.rng.pick(AGGS);
            if shown || !ORDER_DEPENDENT_AGGS.contains(&name) {
                break name;
            }
        };
        if name == "count" && self.rng.pct(30) {
            let f = self.agg_filter(scope, outer);
            return cat(vec![t("count(*)"), f]);
        }
        let arg = if self.rng.pct(70) {
            t(self.rng.pick(scope).clone())
        } else {
            self.expr(1, scope, outer)
        };
        // Not on an order-dependent aggregate: which of equal values DISTINCT
        // keeps under its ORDER BY is not specified.
        let distinct = if !ORDER_DEPENDENT_AGGS.contains(&name) && self.rng.pct(15) {
            "DISTINCT "
        } else {
            ""
        };
        let sep = if name == "group_concat" && self.rng.pct(40) { ", '|'" } else { "" };
        let arg = if name == "json_group_array" { self.json_held(arg) } else { arg };
        let f = self.agg_filter(scope, outer);
        if ORDER_DEPENDENT_AGGS.contains(&name) {
            // The order rows reach an aggregate is arbitrary (SQLite's
            // documentation): compared results need an ORDER BY in the call
            // that leaves no ties with different renderings.
            let order = cat(vec![
                t(" ORDER BY "),
                arg.clone(),
                t(", typeof("),
                arg.clone(),
                t("), hex("),
                arg.clone(),
                t(")"),
            ]);
            return cat(vec![t(format!("{name}({distinct}")), arg, t(sep), order, t(")"), f]);
        }
        cat(vec![t(format!("{name}({distinct}")), arg, t(format!("{sep})")), f])
    }

    fn agg_filter(&mut self, scope: &Scope, outer: &Scope) -> Sql {
        if self.rng.pct(15) {
            let p = self.pred(1, scope, outer);
            alt(cat(vec![t(" FILTER (WHERE "), p, t(")")]), vec![t("")])
        } else {
            t("")
        }
    }

    /// A boolean-ish expression.
    fn pred(&mut self, depth: usize, scope: &Scope, outer: &Scope) -> Sql {
        self.json_wellformed += 1;
        let p = self.pred_any(depth, scope, outer);
        self.json_wellformed -= 1;
        p
    }

    fn pred_any(&mut self, depth: usize, scope: &Scope, outer: &Scope) -> Sql {
        let r = self.rng.below(100);
        let full = match r {
            0..=34 => {
                let op =
                    *self.rng.pick(&["=", "==", "<>", "!=", "<", "<=", ">", ">=", "IS", "IS NOT"]);
                let l = self.operand(depth, scope, outer);
                let rr = self.operand(depth, scope, outer);
                cat(vec![l, t(format!(" {op} ")), rr])
            }
            35..=44 if depth > 0 => {
                let op = *self.rng.pick(&[" AND ", " OR "]);
                let a = self.pred(depth - 1, scope, outer);
                let b = self.pred(depth - 1, scope, outer);
                return alt(cat(vec![t("("), a.clone(), t(op), b.clone(), t(")")]), vec![a, b]);
            }
            45..=52 => {
                let x = self.operand(depth, scope, outer);
                let n = self.rng.below(4);
                let items: Vec<Sql> = (0..n).map(|_| self.literal()).collect();
                let not = if self.rng.pct(30) { " NOT" } else { "" };
                cat(vec![x, t(format!("{not} IN (")), join(items, ", "), t(")")])
            }
            53..=58 => {
                let x = self.operand(depth, scope, outer);
                let p =
                    if self.rng.pct(50) { self.literal() } else { self.operand(0, scope, outer) };
                let op = *self.rng.pick(&[" LIKE ", " NOT LIKE ", " GLOB ", " NOT GLOB "]);
                cat(vec![x, t(op), p])
            }
            59..=63 => {
                let x = self.operand(depth, scope, outer);
                let a = self.literal();
                let b = self.literal();
                let not = if self.rng.pct(30) { " NOT" } else { "" };
                cat(vec![x, t(format!("{not} BETWEEN ")), a, t(" AND "), b])
            }
            64..=68 => {
                let x = self.operand(depth, scope, outer);
                cat(vec![
                    x,
                    t(*self.rng.pick(&[" IS NULL", " IS NOT NULL", " NOTNULL", " ISNULL"])),
                ])
            }
            69..=75 if depth > 0 => {
                let mut inner_outer = outer.clone();
                inner_outer.extend(scope.iter().cloned());
                let sub = self.select_core(1, &inner_outer, 1, Agg::Allow);
                let not = if self.rng.pct(40) { "NOT " } else { "" };
                if self.rng.pct(50) {
                    cat(vec![t(format!("{not}EXISTS (")), sub, t(")")])
                } else {
                    let x = self.operand(0, scope, outer);
                    cat(vec![x, t(format!(" {not}IN (")), sub, t(")")])
                }
            }
            76..=79 => {
                let x = self.pred(depth.saturating_sub(1), scope, outer);
                return alt(cat(vec![t("NOT ("), x.clone(), t(")")]), vec![x]);
            }
            80..=87 => return self.row_value_pred(depth, scope, outer),
            _ => self.operand(depth, scope, outer),
        };
        alt(full, vec![t(*self.rng.pick(&["1", "0", "NULL"]))])
    }

    /// `(x, y …)` of `n` operands.
    fn row_value(&mut self, n: usize, scope: &Scope, outer: &Scope) -> Sql {
        let items: Vec<Sql> = (0..n).map(|_| self.operand(0, scope, outer)).collect();
        cat(vec![t("("), join(items, ", "), t(")")])
    }

    /// A row-value predicate: a comparison, BETWEEN, IN a list of rows or
    /// IN / compared with a two-or-more-column subquery.
    fn row_value_pred(&mut self, depth: usize, scope: &Scope, outer: &Scope) -> Sql {
        let n = 2 + self.rng.below(2);
        let l = self.row_value(n, scope, outer);
        let full = match self.rng.below(10) {
            0..=4 => {
                let op =
                    *self.rng.pick(&["=", "==", "<>", "!=", "<", "<=", ">", ">=", "IS", "IS NOT"]);
                let r = self.row_value(n, scope, outer);
                cat(vec![l, t(format!(" {op} ")), r])
            }
            5 => {
                let a = self.row_value(n, scope, outer);
                let b = self.row_value(n, scope, outer);
                let not = if self.rng.pct(30) { " NOT" } else { "" };
                cat(vec![l, t(format!("{not} BETWEEN ")), a, t(" AND "), b])
            }
            6 => {
                let k = 1 + self.rng.below(3);
                let items: Vec<Sql> = (0..k).map(|_| self.row_value(n, scope, outer)).collect();
                let not = if self.rng.pct(30) { " NOT" } else { "" };
                cat(vec![l, t(format!("{not} IN (")), join(items, ", "), t(")")])
            }
            _ if depth > 0 => {
                let mut inner_outer = outer.clone();
                inner_outer.extend(scope.iter().cloned());
                if self.rng.pct(60) {
                    let sub = self.select_core(n, &inner_outer, 1, Agg::Allow);
                    let not = if self.rng.pct(40) { "NOT " } else { "" };
                    cat(vec![l, t(format!(" {not}IN (")), sub, t(")")])
                } else {
                    // A row subquery: an ungrouped aggregate, one row for
                    // sure (a first row of several is the plan's pick).
                    let sub = self.select_core(n, &inner_outer, 1, Agg::Force);
                    let op = *self.rng.pick(&["=", "<>", "<", ">="]);
                    cat(vec![l, t(format!(" {op} (")), sub, t(")")])
                }
            }
            _ => {
                let r = self.row_value(n, scope, outer);
                cat(vec![l, t(" = "), r])
            }
        };
        alt(full, vec![t(*self.rng.pick(&["1", "0", "NULL"]))])
    }

    fn operand(&mut self, depth: usize, scope: &Scope, outer: &Scope) -> Sql {
        if self.rng.pct(55) && !scope.is_empty() {
            return t(self.rng.pick(scope).clone());
        }
        if self.rng.pct(40) {
            return self.literal();
        }
        self.expr(depth, scope, outer)
    }

    /// A date and time function call: a time value (a typical one or any
    /// expression) and modifiers.
    fn datetime_call(&mut self, d: usize, scope: &Scope, outer: &Scope) -> Sql {
        let tv = |g: &mut Gen| {
            if g.rng.pct(65) { t(*g.rng.pick(TIME_VALUES)) } else { g.expr(d, scope, outer) }
        };
        let name = *self.rng.pick(&[
            "date",
            "time",
            "datetime",
            "julianday",
            "unixepoch",
            "strftime",
            "timediff",
        ]);
        let mut args = Vec::new();
        if name == "strftime" {
            args.push(t(*self.rng.pick(TIME_FORMATS)));
        }
        args.push(tv(self));
        if name == "timediff" {
            args.push(tv(self));
        } else {
            for _ in 0..self.rng.below(3) {
                args.push(t(*self.rng.pick(TIME_MODIFIERS)));
            }
        }
        cat(vec![t(format!("{name}(")), join(args, ", "), t(")")])
    }

    /// A window function call over columns of `scope`.
    fn window_call(&mut self, scope: &Scope, outer: &Scope) -> Sql {
        let f = if self.rng.pct(50) {
            t(*self.rng.pick(WINDOW_FUNCS))
        } else {
            let name = *self.rng.pick(WINDOW_AGGS);
            let arg = if self.rng.pct(70) {
                t(self.rng.pick(scope).clone())
            } else {
                self.expr(1, scope, outer)
            };
            cat(vec![t(format!("{name}(")), arg, t(")")])
        };
        let mut spec = Vec::new();
        if self.rng.pct(60) {
            spec.push(format!("PARTITION BY {}", self.rng.pick(scope)));
        }
        if self.rng.pct(75) {
            let dir = *self.rng.pick(&["", " DESC", " NULLS LAST", " DESC NULLS FIRST"]);
            spec.push(format!("ORDER BY {}{dir}", self.rng.pick(scope)));
            if self.rng.pct(40) {
                // Frames that take whole peer groups only.
                spec.push(
                    (*self.rng.pick(&[
                        "RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING",
                        "RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING",
                        "GROUPS BETWEEN 1 PRECEDING AND 1 FOLLOWING",
                        "GROUPS 2 PRECEDING",
                        "GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING EXCLUDE GROUP",
                        "RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING",
                    ]))
                    .to_string(),
                );
            }
        }
        let over = t(format!(" OVER ({})", spec.join(" ")));
        alt(cat(vec![f, over]), vec![t("NULL")])
    }

    /// A value expression.
    pub fn expr(&mut self, depth: usize, scope: &Scope, outer: &Scope) -> Sql {
        let leaf = |g: &mut Gen| {
            if !scope.is_empty() && g.rng.pct(60) {
                t(g.rng.pick(scope).clone())
            } else if !outer.is_empty() && g.rng.pct(20) {
                t(g.rng.pick(outer).clone())
            } else {
                g.literal()
            }
        };
        if depth == 0 || self.rng.pct(30) {
            return leaf(self);
        }
        let r = self.rng.below(100);
        let d = depth - 1;
        let full = match r {
            0..=24 => {
                let op = *self.rng.pick(&["+", "-", "*", "/", "%", "||", "&", "|", "<<", ">>"]);
                let a = self.expr(d, scope, outer);
                let b = self.expr(d, scope, outer);
                cat(vec![t("("), a, t(format!(" {op} ")), b, t(")")])
            }
            25..=29 => {
                let op = *self.rng.pick(&["-", "+", "~", "NOT "]);
                let a = self.expr(d, scope, outer);
                cat(vec![t(format!("{op}(")), a, t(")")])
            }
            30..=54 => {
                let (name, n) = *self.rng.pick(FUNCS);
                let args: Vec<Sql> = (0..n).map(|_| self.expr(d, scope, outer)).collect();
                let name = if name == "zeroblob" { "zeroblob" } else { name };
                if name == "zeroblob" {
                    // Small sizes only: a random huge zeroblob is a memory test, not a fidelity one.
                    return t(format!("zeroblob({})", self.rng.below(5)));
                }
                cat(vec![t(format!("{name}(")), join(args, ", "), t(")")])
            }
            55..=62 => {
                let a = self.expr(d, scope, outer);
                let ty =
                    *self.rng.pick(&["INTEGER", "REAL", "TEXT", "BLOB", "NUMERIC", "INT", "FLOAT"]);
                cat(vec![t("CAST("), a, t(format!(" AS {ty})"))])
            }
            63..=70 => {
                let w = self.pred(d, scope, outer);
                let a = self.expr(d, scope, outer);
                let b = self.expr(d, scope, outer);
                if self.rng.pct(50) {
                    cat(vec![t("CASE WHEN "), w, t(" THEN "), a, t(" ELSE "), b, t(" END")])
                } else {
                    let x = self.expr(d, scope, outer);
                    let v = self.literal();
                    cat(vec![t("CASE "), x, t(" WHEN "), v, t(" THEN "), a, t(" END")])
                }
            }
            71..=74 => {
                let a = self.expr(d, scope, outer);
                let c = *self.rng.pick(&["NOCASE", "RTRIM", "BINARY"]);
                cat(vec![t("("), a, t(format!(" COLLATE {c})"))])
            }
            75..=79 if !scope.is_empty() => {
                let mut inner_outer = outer.clone();
                inner_outer.extend(scope.iter().cloned());
                // Aggregated: one row, whatever order the rows come in.
                let sub = self.select_core(1, &inner_outer, 1, Agg::Force);
                cat(vec![t("("), sub, t(")")])
            }
            80..=86 => self.pred(d, scope, outer),
            87..=89 => self.datetime_call(d, scope, outer),
            90..=92 => self.json_expr(d, scope, outer),
            _ => leaf(self),
        };
        let simpler = leaf(self);
        alt(full, vec![simpler, t("NULL")])
    }
}
