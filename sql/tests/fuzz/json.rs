//! JSON for the generator: SQLite's JSON functions and operators over
//! documents (literal, built by json_array/json_object, or a column's
//! value), paths into them, edits, and json_each/json_tree in FROM.

use super::session::Gen;
use super::sql::{Sql, alt, cat, join, t};

/// Column references in scope, as the generator keeps them.
type Scope = Vec<String>;

/// Documents: arrays, objects, nesting, scalars, JSON5, malformed.
const DOCS: &[&str] = &[
    "'[1,2,3]'",
    "'[]'",
    "'{}'",
    "'{\"a\":1,\"b\":[2,3],\"c\":{\"d\":null}}'",
    "'{\"a\":\"x\",\"b\":true,\"c\":1.5}'",
    "'[1,[2,[3,[4]]],{\"a\":[5]}]'",
    "'{\"a\":{\"b\":{\"c\":\"deep\"}}}'",
    "'[\"A\",\"b\",\"\\u00e9\",null,-0,1e400]'",
    "'{\"a\":1,\"a\":2}'",
    "'\"str\"'",
    "'42'",
    "'-1.5e3'",
    "'null'",
    "'true'",
    "'{a:1,b:[0x10,.5,],}'",
    "'[9223372036854775807,9223372036854775808,-0.0]'",
    "'not json'",
    "'[1,2'",
    "''",
    "NULL",
];

/// Paths: members, indexes, from the end, absent, malformed, and the
/// abbreviated forms `->` and `->>` accept.
const PATHS: &[&str] = &[
    "'$'",
    "'$.a'",
    "'$.b'",
    "'$.c'",
    "'$.b[1]'",
    "'$[0]'",
    "'$[1]'",
    "'$[1][1]'",
    "'$[#-1]'",
    "'$[#]'",
    "'$.a.b'",
    "'$.a.b.c'",
    "'$.c.d'",
    "'$.\"a\"'",
    "'$[2].a[0]'",
    "'$.zz'",
    "'$['",
    "'a'",
    "NULL",
];

/// The documents and paths of `DOCS` and `PATHS` that make a JSON function
/// fail.
const MALFORMED_DOCS: &[&str] = &["'not json'", "'[1,2'", "''"];
const MALFORMED_PATHS: &[&str] = &["'$['", "'a'"];

/// Paths `->` and `->>` take besides full ones: a label or an index.
const SHORT_PATHS: &[&str] = &["'a'", "'b'", "0", "1", "-1", "'[0]'", "'#-1'"];

/// Object labels.
const LABELS: &[&str] = &["'a'", "'b'", "'c'", "''", "'a b'", "'é'"];

/// The columns a json_each/json_tree item adds to the scope.
const EACH_COLUMNS: &[&str] = &["key", "value", "type", "atom", "id", "parent", "fullkey", "path"];

impl Gen {
    /// A literal document; a well-formed one in a predicate, a SELECT that
    /// joins, or a FROM item (`self.json_wellformed`). There, whether a
    /// malformed document or path is ever read depends on SQLite's plan:
    /// the join order its cost model picks (an empty table first and the
    /// function is never called; a table-valued function first and it
    /// is), its EXISTS-to-JOIN rewrite, whether a bound of an index range
    /// is evaluated before the range is found empty. That is not a rule
    /// AsaDB can follow. The rules SQLite keeps whatever the plan are
    /// followed and tested (`tests/join_differential.rs`: a term tested in
    /// the outermost loop that has its columns, constant terms first, an
    /// EXISTS body's select list never evaluated, LEFT JOIN strength
    /// reduction), and malformed JSON stays in select lists and DML values,
    /// evaluated once per row whatever the plan.
    fn json_literal(&mut self) -> &'static str {
        loop {
            let d = *self.rng.pick(DOCS);
            if self.json_wellformed == 0 || !MALFORMED_DOCS.contains(&d) {
                return d;
            }
        }
    }

    /// A literal path: well-formed inside a join (see [`Self::json_literal`]).
    fn json_path(&mut self) -> Sql {
        loop {
            let p = *self.rng.pick(PATHS);
            if self.json_wellformed == 0 || !MALFORMED_PATHS.contains(&p) {
                return t(p);
            }
        }
    }

    /// What an expression holds, as a document: inside a join, NULL unless
    /// it is well-formed JSON (see [`Self::json_literal`]).
    fn json_of(&mut self, e: Sql) -> Sql {
        if self.json_wellformed == 0 {
            return e;
        }
        cat(vec![t("CASE WHEN json_valid("), e.clone(), t(") THEN "), e, t(" END")])
    }

    /// A value for JSON to hold: inside a join, NULL instead of a BLOB
    /// ("JSON cannot hold BLOB values" is raised or not by SQLite's plan,
    /// like a malformed document, see [`Self::json_literal`]).
    pub fn json_held(&mut self, e: Sql) -> Sql {
        if self.json_wellformed == 0 {
            return e;
        }
        cat(vec![t("CASE WHEN typeof("), e.clone(), t(") <> 'blob' THEN "), e, t(" END")])
    }

    /// A JSON document: mostly a literal one, sometimes built, sometimes
    /// whatever a column or expression holds.
    fn json_doc(&mut self, depth: usize, scope: &Scope, outer: &Scope) -> Sql {
        let lit = t(self.json_literal());
        let r = self.rng.below(100);
        let full = match r {
            0..=59 => return lit,
            60..=69 if depth > 0 => self.json_build(depth - 1, scope, outer),
            70..=79 if depth > 0 => {
                let d = self.json_doc(depth - 1, scope, outer);
                let p = self.json_path();
                let v = self.expr(depth - 1, scope, outer);
                let v = self.json_held(v);
                let f = *self.rng.pick(&["json_set", "json_insert", "json_replace"]);
                cat(vec![t(format!("{f}(")), d, t(", "), p, t(", "), v, t(")")])
            }
            80..=84 if depth > 0 => {
                let d = self.json_doc(depth - 1, scope, outer);
                cat(vec![t("json("), d, t(")")])
            }
            _ => {
                let e = self.expr(depth.min(1), scope, outer);
                self.json_of(e)
            }
        };
        alt(full, vec![lit])
    }

    /// `json_array(…)` or `json_object(…)` of generated values.
    fn json_build(&mut self, depth: usize, scope: &Scope, outer: &Scope) -> Sql {
        let n = self.rng.below(4);
        if self.rng.pct(50) {
            let items: Vec<Sql> = (0..n).map(|_| self.json_value(depth, scope, outer)).collect();
            cat(vec![t("json_array("), join(items, ", "), t(")")])
        } else {
            let items: Vec<Sql> = (0..n)
                .map(|_| {
                    let k = t(*self.rng.pick(LABELS));
                    let v = self.json_value(depth, scope, outer);
                    cat(vec![k, t(", "), v])
                })
                .collect();
            cat(vec![t("json_object("), join(items, ", "), t(")")])
        }
    }

    /// A value to put into JSON: any expression, or JSON itself (kept as
    /// JSON by its subtype).
    fn json_value(&mut self, depth: usize, scope: &Scope, outer: &Scope) -> Sql {
        if depth > 0 && self.rng.pct(30) {
            self.json_build(depth - 1, scope, outer)
        } else if self.rng.pct(15) {
            let d = t(self.json_literal());
            cat(vec![t("json("), d, t(")")])
        } else {
            let e = self.expr(depth, scope, outer);
            self.json_held(e)
        }
    }

    /// A JSON function call or operator, at expression depth `depth`.
    pub fn json_expr(&mut self, depth: usize, scope: &Scope, outer: &Scope) -> Sql {
        let d = depth.saturating_sub(1);
        let doc = self.json_doc(depth, scope, outer);
        let path = self.json_path();
        let full = match self.rng.below(16) {
            0 => cat(vec![t("json_extract("), doc.clone(), t(", "), path, t(")")]),
            1 | 2 => {
                let op = *self.rng.pick(&["->", "->>"]);
                let p = if self.rng.pct(50) { path } else { t(*self.rng.pick(SHORT_PATHS)) };
                cat(vec![t("("), doc.clone(), t(format!(" {op} ")), p, t(")")])
            }
            3 => cat(vec![t("json_type("), doc.clone(), t(", "), path, t(")")]),
            4 => cat(vec![t("json_type("), doc.clone(), t(")")]),
            5 => {
                let f =
                    *self.rng.pick(&["json_valid", "json", "json_quote", "json_error_position"]);
                cat(vec![t(format!("{f}(")), doc.clone(), t(")")])
            }
            6 => cat(vec![t("json_array_length("), doc.clone(), t(")")]),
            7 => cat(vec![t("json_array_length("), doc.clone(), t(", "), path, t(")")]),
            8 | 9 => {
                let v = self.json_value(d, scope, outer);
                let f = *self.rng.pick(&[
                    "json_set",
                    "json_insert",
                    "json_replace",
                    "json_array_insert",
                ]);
                cat(vec![t(format!("{f}(")), doc.clone(), t(", "), path, t(", "), v, t(")")])
            }
            10 => cat(vec![t("json_remove("), doc.clone(), t(", "), path, t(")")]),
            11 => {
                let p = self.json_doc(d, scope, outer);
                cat(vec![t("json_patch("), doc.clone(), t(", "), p, t(")")])
            }
            12 | 13 => self.json_build(d, scope, outer),
            14 => {
                let v = self.expr(d, scope, outer);
                let v = self.json_held(v);
                cat(vec![t("json_quote("), v, t(")")])
            }
            _ => {
                // A scalar subquery over json_each/json_tree of the document.
                let f = *self.rng.pick(&["json_each", "json_tree"]);
                let col = *self.rng.pick(EACH_COLUMNS);
                let agg = *self.rng.pick(&[
                    "count(*)",
                    "max(#)",
                    "min(#)",
                    "group_concat(#)",
                    "json_group_array(#)",
                ]);
                let agg = agg.replace('#', col);
                cat(vec![t(format!("(SELECT {agg} FROM {f}(")), doc.clone(), t("))")])
            }
        };
        alt(full, vec![doc])
    }

    /// A FROM item over json_each/json_tree reading the scope (correlated)
    /// or a literal document; its columns as `alias.col`.
    pub fn json_from_item(&mut self, alias: &str, scope: &Scope) -> (Sql, Vec<String>) {
        self.json_wellformed += 1;
        let item = self.json_from_item_wellformed(alias, scope);
        self.json_wellformed -= 1;
        item
    }

    fn json_from_item_wellformed(&mut self, alias: &str, scope: &Scope) -> (Sql, Vec<String>) {
        let f = *self.rng.pick(&["json_each", "json_tree"]);
        let doc = if !scope.is_empty() && self.rng.pct(40) {
            let c = t(self.rng.pick(scope).clone());
            self.json_of(c)
        } else {
            t(self.json_literal())
        };
        let root = if self.rng.pct(25) { cat(vec![t(", "), self.json_path()]) } else { t("") };
        let item = cat(vec![t(format!("{f}(")), doc, root, t(format!(") AS {alias}"))]);
        (item, EACH_COLUMNS.iter().map(|c| format!("{alias}.{c}")).collect())
    }
}
