//! Statements that change data: INSERT / UPDATE / DELETE, with
//! constraints (NOT NULL, STRICT types, CHECK, PRIMARY KEY, UNIQUE,
//! generated columns, AUTOINCREMENT) and RETURNING.
//!
//! Writes go through [`RowStore`] row by row. Rows to modify are collected
//! before the first change, so a statement never sees its own writes (an
//! `INSERT INTO t SELECT … FROM t` reads t as it was). Constraint order
//! follows SQLite: NOT NULL, then CHECK, then PRIMARY KEY / UNIQUE.

use std::cell::{Cell, RefCell};
use std::ops::Bound;
use std::sync::Arc;

use sqlparser::ast;

use super::fkey::{Checks, TableKeys, Write};
use super::index::{IndexKeys, bind_in_table, table_scope};
use super::trigger::{Event, TableTriggers};
use super::vals::{self, Affinity};
use super::{Context, ExecState, build, table_row};
use crate::catalog::{self, IndexDef, Schema, TableDef, object_name};
use crate::expr::Expr;
use crate::planner::bind::Scope;
use crate::planner::{Binder, plan_query, plan_table_scan};
use crate::storage::{Row, RowStore};
use crate::value::Value;
use crate::{Error, Result};

mod update;
mod upsert;
pub use update::update;
use update::{bind_sets, set_targets};
use upsert::{Resolved, Upsert};

/// What to do when a row violates a constraint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Conflict {
    Abort,
    Ignore,
    Replace,
}

/// Result of a DML statement: the count and any RETURNING rows.
pub struct DmlResult {
    pub affected: u64,
    pub columns: Vec<String>,
    pub returning: Option<Vec<Row>>,
}

/// The AUTOINCREMENT counter of one table, as a statement knows it: its
/// `sqlite_sequence` row (if any) and the largest rowid ever used.
struct Sequence {
    table: Arc<TableDef>,
    row: Option<i64>,
    seq: i64,
    dirty: bool,
}

impl Sequence {
    fn load(store: &dyn RowStore, schema: &Schema, t: &TableDef) -> Result<Option<Sequence>> {
        if !t.autoincrement {
            return Ok(None);
        }
        let Some(st) = schema.table(catalog::SEQUENCE_TABLE).cloned() else {
            return Err(Error::Corrupt("AUTOINCREMENT table without sqlite_sequence".into()));
        };
        let mut cur = store.scan(&st, (Bound::Unbounded, Bound::Unbounded), false)?;
        let mut found = None;
        while let Some((rowid, row)) = cur.next()? {
            if matches!(row.first(), Some(Value::Text(n)) if n.eq_ignore_ascii_case(&t.name)) {
                let seq = match row.get(1).map(|v| Affinity::Integer.apply(v.clone())) {
                    Some(Value::Integer(i)) => i,
                    _ => 0,
                };
                found = Some((rowid, seq));
                break;
            }
        }
        Ok(Some(Sequence {
            table: st,
            row: found.map(|f| f.0),
            seq: found.map_or(0, |f| f.1),
            dirty: false,
        }))
    }

    /// Writes the counter back (once per statement, as SQLite does).
    fn save(&mut self, store: &dyn RowStore, name: &str) -> Result<()> {
        if !self.dirty {
            return Ok(());
        }
        let row = vec![Value::Text(name.into()), Value::Integer(self.seq)];
        let rowid = match self.row {
            Some(r) => r,
            None => store.max_rowid(&self.table)?.map_or(1, |m| m.saturating_add(1)),
        };
        store.insert(&self.table, rowid, &row)?;
        self.row = Some(rowid);
        self.dirty = false;
        Ok(())
    }
}

/// The constraint-checking context of one table.
struct Target<'a> {
    table: Arc<TableDef>,
    indexes: Vec<IndexKeys>,
    checks: Vec<(Expr, String)>,
    /// Column defaults, bound once per statement and evaluated for each row
    /// that needs one, in the statement's environment: `CURRENT_TIMESTAMP`
    /// or `datetime('now')` give every row of one statement the same
    /// instant, as in SQLite.
    defaults: Vec<Option<Expr>>,
    /// Generated columns, in an order where each is computed after the
    /// generated columns it reads.
    generated: Vec<(usize, Expr)>,
    /// The largest rowid in the table as far as this statement knows:
    /// read once from the store, then raised by every row this statement
    /// writes, so a row without a rowid gets max + 1 without a tree
    /// descent each time. Forgotten when the statement deletes a row.
    max_rowid: Cell<Option<i64>>,
    /// AUTOINCREMENT's counter.
    sequence: RefCell<Option<Sequence>>,
    /// The foreign keys this statement's writes must keep (`None`: off,
    /// or none applies).
    keys: Option<TableKeys<'a>>,
    /// The triggers each row change fires.
    triggers: Option<TableTriggers>,
    schema: &'a Schema,
    nesting: &'a Checks,
}

impl<'a> Target<'a> {
    fn new(
        b: &mut Binder,
        schema: &'a Schema,
        t: &Arc<TableDef>,
        fk: &'a Checks,
        write: Write,
    ) -> Result<Target<'a>> {
        let keys = TableKeys::new(fk, b.store, schema, t, write)?;
        let event = match write {
            Write::Insert { .. } => Some(Event::Insert),
            Write::Update(set) => Some(Event::Update(set)),
            Write::Delete => Some(Event::Delete),
            Write::Drop => None,
        };
        let triggers = event.and_then(|e| TableTriggers::new(schema, t, e));
        let exprs: Vec<&ast::Expr> = t.checks.iter().map(|c| &c.0).collect();
        let checks = bind_in_table(b, t, &exprs)?
            .into_iter()
            .zip(t.checks.iter().map(|c| c.1.clone()))
            .collect();
        b.push_scope(Scope::default());
        let defaults = t
            .columns
            .iter()
            .map(|c| c.default.as_ref().map(|d| b.bind_expr(d)).transpose())
            .collect::<Result<Vec<_>>>();
        b.pop_scope();
        let indexes = schema
            .table_indexes(&t.name)
            .iter()
            .map(|ix| IndexKeys::new(b, t, ix))
            .collect::<Result<Vec<_>>>()?;
        Ok(Target {
            table: t.clone(),
            indexes,
            checks,
            defaults: defaults?,
            generated: generated_order(b, t)?,
            max_rowid: Cell::new(None),
            sequence: RefCell::new(Sequence::load(b.store, schema, t)?),
            keys,
            triggers,
            schema,
            nesting: fk,
        })
    }

    /// Applies the conflict action to every UNIQUE index entry that `local`
    /// (the row to be stored at `rowid`) would collide with: `Ok(false)`
    /// when OR IGNORE skips the row, an error for ABORT, and for REPLACE
    /// the other row is deleted.
    fn resolve_unique(
        &self,
        store: &dyn RowStore,
        cx: &Context,
        local: &[Value],
        rowid: i64,
        action: Conflict,
    ) -> Result<bool> {
        for ik in self.indexes.iter().filter(|i| i.unique()) {
            let Some(key) = ik.key(local, cx)? else { continue };
            if key.iter().any(|v| matches!(v, Value::Null)) {
                continue;
            }
            let Some(other) = store.index_lookup(&ik.index, &key)? else { continue };
            if other == rowid {
                continue;
            }
            match action {
                Conflict::Ignore => return Ok(false),
                Conflict::Replace => {
                    if let Some(old) = store.get(&self.table, other)?
                        && !self.delete_replaced(store, cx, other, old)?
                    {
                        return Err(self.unique_failed(&ik.index));
                    }
                }
                Conflict::Abort => return Err(self.unique_failed(&ik.index)),
            }
        }
        Ok(true)
    }

    fn unique_failed(&self, ix: &IndexDef) -> Error {
        Error::Constraint(format!("UNIQUE constraint failed: {}", self.index_constraint(ix)))
    }

    fn constraint(&self, cols: &[usize]) -> String {
        cols.iter()
            .map(|c| format!("{}.{}", self.table.name, self.table.columns[*c].name))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// How SQLite names a UNIQUE index in its error: its columns, or
    /// `index 'name'` when a key part is an expression.
    fn index_constraint(&self, ix: &IndexDef) -> String {
        if ix.has_exprs() { format!("index '{}'", ix.name) } else { self.constraint(&ix.columns) }
    }

    /// Adds the index entries of a stored row.
    fn insert_entries(
        &self,
        store: &dyn RowStore,
        cx: &Context,
        local: &[Value],
        rowid: i64,
    ) -> Result<()> {
        for ik in &self.indexes {
            if let Some(key) = ik.key(local, cx)? {
                store.index_insert(&ik.index, &key, rowid)?;
            }
        }
        Ok(())
    }

    /// Removes a row and its index entries.
    fn delete(
        &self,
        store: &dyn RowStore,
        cx: &Context,
        rowid: i64,
        stored: &[Value],
    ) -> Result<()> {
        self.max_rowid.set(None);
        let local = table_row(&self.table, rowid, stored.to_vec());
        for ik in &self.indexes {
            if let Some(key) = ik.key(&local, cx)? {
                store.index_delete(&ik.index, &key, rowid)?;
            }
        }
        store.delete(&self.table, rowid)
    }

    /// Removes the row a REPLACE displaces, with its foreign key actions
    /// (as SQLite's REPLACE does when foreign keys are on) and, when
    /// `PRAGMA recursive_triggers` is on, the table's DELETE triggers
    /// (SQLite fires them for REPLACE's deletions exactly then): BEFORE,
    /// the deletion and its actions, AFTER. `Ok(false)`: a BEFORE
    /// trigger's `RAISE(IGNORE)` kept the row, so the conflict stands and
    /// the caller fails with it (as SQLite does).
    fn delete_replaced(
        &self,
        store: &dyn RowStore,
        cx: &Context,
        rowid: i64,
        stored: Row,
    ) -> Result<bool> {
        let triggers = match self.nesting.recursive_triggers {
            true => TableTriggers::new(self.schema, &self.table, Event::Delete),
            false => None,
        };
        let Some(tt) = triggers else {
            self.delete(store, cx, rowid, &stored)?;
            self.parent_gone(store, &table_row(&self.table, rowid, stored), None)?;
            return Ok(true);
        };
        let old = table_row(&self.table, rowid, stored);
        if !tt.before(store, self.schema, self.nesting, Some(&old), None)? {
            return Ok(false);
        }
        // The trigger may have changed or removed the row.
        let Some(now) = store.get(&self.table, rowid)? else { return Ok(true) };
        let old = table_row(&self.table, rowid, now.clone());
        self.delete(store, cx, rowid, &now)?;
        self.parent_gone(store, &old, None)?;
        tt.after(store, self.schema, self.nesting, Some(&old), None)?;
        self.max_rowid.set(None);
        Ok(true)
    }

    /// A row of this table went (`new`: the row replacing it, for an
    /// UPDATE): the actions of the foreign keys it was a parent of.
    fn parent_gone(
        &self,
        store: &dyn RowStore,
        old: &[Value],
        new: Option<&[Value]>,
    ) -> Result<()> {
        if let Some(k) = self.keys.as_ref().filter(|k| k.is_parent()) {
            k.parent_changed(store, old, new)?;
            // The actions may have written this table.
            self.max_rowid.set(None);
        }
        Ok(())
    }

    /// The `NEW` row a BEFORE trigger sees: the values about to be
    /// written with the columns' affinities, the rowid if known (else -1,
    /// as SQLite).
    fn pending_row(&self, row: &[Value], explicit: Option<i64>) -> Row {
        let t = &self.table;
        let mut local: Row = t
            .columns
            .iter()
            .enumerate()
            .map(|(i, c)| c.affinity.apply(row.get(i).cloned().unwrap_or(Value::Null)))
            .collect();
        let rowid = match t.rowid_alias {
            Some(a) => match &local[a] {
                Value::Integer(i) => *i,
                _ => -1,
            },
            None => explicit.unwrap_or(-1),
        };
        if let Some(a) = t.rowid_alias {
            local[a] = Value::Integer(rowid);
        }
        local.push(Value::Integer(rowid));
        local
    }

    fn before(
        &self,
        store: &dyn RowStore,
        old: Option<&[Value]>,
        new: Option<&[Value]>,
    ) -> Result<bool> {
        match &self.triggers {
            Some(tt) => tt.before(store, self.schema, self.nesting, old, new),
            None => Ok(true),
        }
    }

    fn after(
        &self,
        store: &dyn RowStore,
        old: Option<&[Value]>,
        new: Option<&[Value]>,
    ) -> Result<()> {
        match &self.triggers {
            Some(tt) => {
                tt.after(store, self.schema, self.nesting, old, new)?;
                // The triggers may have written this table.
                self.max_rowid.set(None);
                Ok(())
            }
            None => Ok(()),
        }
    }

    fn known_max_rowid(&self, store: &dyn RowStore) -> Result<Option<i64>> {
        if let Some(m) = self.max_rowid.get() {
            return Ok(Some(m));
        }
        let m = store.max_rowid(&self.table)?;
        self.max_rowid.set(m);
        Ok(m)
    }

    /// Notes that row `rowid` now exists.
    fn wrote_rowid(&self, rowid: i64) {
        if let Some(m) = self.max_rowid.get() {
            self.max_rowid.set(Some(m.max(rowid)));
        }
        if let Some(s) = self.sequence.borrow_mut().as_mut()
            && rowid > s.seq
        {
            s.seq = rowid;
            s.dirty = true;
        }
    }

    /// The rowid of a new row that was given none: one past the largest
    /// (for AUTOINCREMENT, past the largest ever used). Past
    /// 9223372036854775807, SQLite's rule: an AUTOINCREMENT table is full;
    /// any other table gets a random unused positive rowid (up to 100
    /// tries, then full).
    fn next_rowid(&self, store: &dyn RowStore) -> Result<i64> {
        let full = || Err(Error::TooLarge("database or disk is full".into()));
        let max = self.known_max_rowid(store)?.unwrap_or(0);
        // Only AUTOINCREMENT's counter (never below 0) takes part: past a
        // largest rowid of -5 an ordinary table's next is -4, as SQLite's.
        let seq = self.sequence.borrow().as_ref().map(|s| s.seq);
        let autoincrement = seq.is_some();
        match seq.map_or(max, |s| max.max(s)) {
            i64::MAX if autoincrement => full(),
            i64::MAX => {
                for _ in 0..100 {
                    let r = (crate::func::scalar::rng::next() >> 1) as i64;
                    if r > 0 && store.get(&self.table, r)?.is_none() {
                        return Ok(r);
                    }
                }
                full()
            }
            m => Ok(m + 1),
        }
    }

    /// Ends a statement that inserted rows: the AUTOINCREMENT counter goes
    /// back to `sqlite_sequence`.
    fn finish(&self, store: &dyn RowStore) -> Result<()> {
        if let Some(s) = self.sequence.borrow_mut().as_mut() {
            s.save(store, &self.table.name)?;
        }
        Ok(())
    }

    /// STRICT: the value (affinity applied) must have the column's type.
    fn strict_check(&self, i: usize, v: &Value) -> Result<()> {
        let t = &self.table;
        let c = &t.columns[i];
        let ok = match (c.affinity, v) {
            (_, Value::Null) => true,
            (Affinity::Integer, Value::Integer(_)) | (Affinity::Real, Value::Real(_)) => true,
            (Affinity::Text, Value::Text(_)) => true,
            (Affinity::Blob, _) => {
                !c.decl_type.as_deref().is_some_and(|d| d.eq_ignore_ascii_case("BLOB"))
                    || matches!(v, Value::Blob(_))
            }
            _ => false,
        };
        if ok {
            return Ok(());
        }
        let class = match v {
            Value::Integer(_) => "INTEGER",
            Value::Real(_) => "REAL",
            Value::Text(_) => "TEXT",
            Value::Blob(_) => "BLOB",
            Value::Null => "NULL",
        };
        Err(Error::Constraint(format!(
            "cannot store {class} value in {} column {}.{}",
            c.decl_type.as_deref().unwrap_or("").to_ascii_uppercase(),
            t.name,
            c.name
        )))
    }

    /// Inserts one row (all declared columns, rowid alias slot holding the
    /// requested rowid or NULL). Returns the local row, or `None` if the
    /// row was skipped by OR IGNORE.
    ///
    /// `explicit`: the rowid, given apart from the row, of a table without
    /// an INTEGER PRIMARY KEY (`INSERT INTO t(rowid, …)`, or UPDATE keeping
    /// a row's rowid); ignored for a table with one.
    fn insert(
        &self,
        store: &dyn RowStore,
        cx: &Context,
        row: Row,
        explicit: Option<i64>,
        action: Conflict,
    ) -> Result<Option<Row>> {
        match self.prepare(store, cx, row, explicit, action)? {
            Some((rowid, local)) => self.store_row(store, cx, rowid, local, action),
            None => Ok(None),
        }
    }

    /// The first half of [`Target::insert`]: the row's rowid, affinities
    /// and generated columns, then NOT NULL, STRICT and CHECK — every
    /// constraint but the uniqueness ones. Returns the rowid and the local
    /// row, or `None` if OR IGNORE skips it.
    fn prepare(
        &self,
        store: &dyn RowStore,
        cx: &Context,
        mut row: Row,
        explicit: Option<i64>,
        action: Conflict,
    ) -> Result<Option<(i64, Row)>> {
        let t = &self.table;
        // The rowid.
        let given = match (t.rowid_alias, explicit) {
            (None, Some(r)) => Some(Value::Integer(r)),
            (alias, _) => alias.map(|a| row[a].clone()),
        };
        let rowid = match given {
            Some(Value::Null) | None => self.next_rowid(store)?,
            Some(v) => rowid_value(v)?,
        };
        for (i, c) in t.columns.iter().enumerate() {
            let v = std::mem::replace(&mut row[i], Value::Null);
            row[i] = c.affinity.apply(v);
        }
        if let Some(a) = t.rowid_alias {
            row[a] = Value::Integer(rowid);
        }
        let mut local = table_row(t, rowid, row);
        // Generated columns, from the row's other values.
        for (i, e) in &self.generated {
            let v = e.eval(&local, cx)?;
            local[*i] = t.columns[*i].affinity.apply(v);
        }
        // NOT NULL.
        for (i, c) in t.columns.iter().enumerate() {
            if c.not_null && matches!(local[i], Value::Null) {
                match action {
                    Conflict::Ignore => return Ok(None),
                    Conflict::Replace if self.defaults[i].is_some() => {
                        let d = self.defaults[i].as_ref().expect("checked").eval(&[], cx)?;
                        local[i] = c.affinity.apply(d);
                        if matches!(local[i], Value::Null) {
                            return Err(not_null(t, i));
                        }
                    }
                    _ => return Err(not_null(t, i)),
                }
            }
        }
        // STRICT types.
        if t.strict {
            for (i, v) in local.iter().enumerate().take(t.columns.len()) {
                if Some(i) != t.rowid_alias {
                    self.strict_check(i, v)?;
                }
            }
        }
        // CHECK.
        for (e, text) in &self.checks {
            if vals::truthy(&e.eval(&local, cx)?) == Some(false) {
                if action == Conflict::Ignore {
                    return Ok(None);
                }
                return Err(Error::Constraint(format!("CHECK constraint failed: {text}")));
            }
        }
        Ok(Some((rowid, local)))
    }

    /// The second half of [`Target::insert`]: PRIMARY KEY and UNIQUE as
    /// `action` says, then the row, its index entries and its foreign keys.
    fn store_row(
        &self,
        store: &dyn RowStore,
        cx: &Context,
        rowid: i64,
        mut local: Row,
        action: Conflict,
    ) -> Result<Option<Row>> {
        let t = &self.table;
        // PRIMARY KEY (rowid) and UNIQUE. The stored row is `local` without
        // the rowid column, and with NULL in the rowid alias's slot.
        let alias = t.rowid_alias.map(|a| std::mem::replace(&mut local[a], Value::Null));
        let stored = &local[..t.columns.len()];
        let rowid_taken = |t: &TableDef| {
            let what = match t.rowid_alias {
                Some(a) => self.constraint(&[a]),
                None => format!("{}.rowid", t.name),
            };
            Error::Constraint(format!("UNIQUE constraint failed: {what}"))
        };
        if action == Conflict::Replace {
            if let Some(old) = store.get(t, rowid)?
                && !self.delete_replaced(store, cx, rowid, old)?
            {
                return Err(rowid_taken(t));
            }
        } else if !store.insert_new(t, rowid, stored)? {
            // One descent checked the rowid and wrote the row.
            return match action {
                Conflict::Ignore => Ok(None),
                _ => Err(rowid_taken(t)),
            };
        }
        if let (Some(a), Some(v)) = (t.rowid_alias, alias.clone()) {
            local[a] = v;
        }
        if !self.resolve_unique(store, cx, &local, rowid, action)? {
            // OR IGNORE: the row written above goes again (Abort fails the
            // statement, whose savepoint undoes the write).
            store.delete(t, rowid)?;
            return Ok(None);
        }
        if action == Conflict::Replace {
            if let Some(a) = t.rowid_alias {
                local[a] = Value::Null;
            }
            store.insert(t, rowid, &local[..t.columns.len()])?;
            if let (Some(a), Some(v)) = (t.rowid_alias, alias) {
                local[a] = v;
            }
        }
        self.insert_entries(store, cx, &local, rowid)?;
        self.wrote_rowid(rowid);
        if let Some(k) = &self.keys {
            k.wrote(store, &local, &t.name)?;
        }
        Ok(Some(local))
    }

    /// Updates row `rowid`, now `old` (its local row), to `new` (its
    /// declared columns): BEFORE UPDATE triggers, the constraints as
    /// `action` says, the foreign keys and their actions, AFTER UPDATE
    /// triggers — for an UPDATE and for an upsert's DO UPDATE alike.
    /// Returns the row written, or `None` when a trigger's RAISE(IGNORE),
    /// the row's disappearance or OR IGNORE skipped it.
    fn update_row(
        &self,
        store: &dyn RowStore,
        cx: &Context,
        rowid: i64,
        mut old: Row,
        new: Row,
        action: Conflict,
    ) -> Result<Option<Row>> {
        let t = &self.table;
        if let Some(a) = t.rowid_alias
            && matches!(new[a], Value::Null)
        {
            return Err(Error::InvalidInput("datatype mismatch".into()));
        }
        if self.triggers.is_some() {
            let pending = self.pending_row(&new, Some(rowid));
            if !self.before(store, Some(&old), Some(&pending))? {
                return Ok(None);
            }
            // The BEFORE triggers may have changed or removed the row.
            match store.get(t, rowid)? {
                Some(now) => old = table_row(t, rowid, now),
                None => return Ok(None),
            }
        }
        let same_rowid = match t.rowid_alias {
            None => true,
            Some(a) => rowid_value(new[a].clone()).ok() == Some(rowid),
        };
        if same_rowid && action != Conflict::Replace {
            return self.update_in_place(store, cx, rowid, old, new, action);
        }
        let ncols = t.columns.len();
        let mut stored_old = old[..ncols].to_vec();
        if let Some(a) = t.rowid_alias {
            stored_old[a] = Value::Null;
        }
        self.delete(store, cx, rowid, &stored_old)?;
        // A table without an alias keeps the row's rowid.
        match self.insert(store, cx, new, Some(rowid), action)? {
            Some(local) => {
                self.parent_gone(store, &old, Some(&local))?;
                self.after(store, Some(&old), Some(&local))?;
                Ok(Some(local))
            }
            None => {
                // OR IGNORE skipped the new row: put the old one back.
                store.insert(t, rowid, &stored_old)?;
                self.insert_entries(store, cx, &old, rowid)?;
                Ok(None)
            }
        }
    }
}

impl Target<'_> {
    /// [`Target::update_row`] of a row that keeps its rowid, under ABORT or
    /// IGNORE (REPLACE may delete other rows first: the general path): the
    /// row is rewritten where it is and only the index entries whose key
    /// changed (exactly: `1` to `1.0` is a change) move, as SQLite's UPDATE
    /// touches only the indexes of changed columns.
    fn update_in_place(
        &self,
        store: &dyn RowStore,
        cx: &Context,
        rowid: i64,
        old: Row,
        new: Row,
        action: Conflict,
    ) -> Result<Option<Row>> {
        let t = &self.table;
        let Some((_, mut local)) = self.prepare(store, cx, new, Some(rowid), action)? else {
            return Ok(None);
        };
        // Uniqueness first, with the row's own entries still in place (a
        // lookup that finds this row is no conflict).
        if !self.resolve_unique(store, cx, &local, rowid, action)? {
            return Ok(None);
        }
        let mut moved = Vec::new();
        for ik in &self.indexes {
            let before = ik.key(&old, cx)?;
            let after = ik.key(&local, cx)?;
            let same = match (&before, &after) {
                (None, None) => true,
                (Some(a), Some(b)) => {
                    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.is_identical(y))
                }
                _ => false,
            };
            if !same {
                moved.push((ik, before, after));
            }
        }
        let alias = t.rowid_alias.map(|a| std::mem::replace(&mut local[a], Value::Null));
        store.insert(t, rowid, &local[..t.columns.len()])?;
        if let (Some(a), Some(v)) = (t.rowid_alias, alias) {
            local[a] = v;
        }
        for (ik, before, after) in moved {
            if let Some(k) = before {
                store.index_delete(&ik.index, &k, rowid)?;
            }
            if let Some(k) = after {
                store.index_insert(&ik.index, &k, rowid)?;
            }
        }
        self.wrote_rowid(rowid);
        if let Some(k) = &self.keys {
            k.wrote(store, &local, &t.name)?;
        }
        self.parent_gone(store, &old, Some(&local))?;
        self.after(store, Some(&old), Some(&local))?;
        Ok(Some(local))
    }
}

/// The generated columns of `t`, bound, in an order where each comes after
/// the generated columns it reads (SQLite's "generated column loop"
/// otherwise).
pub(crate) fn generated_order(b: &mut Binder, t: &Arc<TableDef>) -> Result<Vec<(usize, Expr)>> {
    let mut pending: Vec<(usize, Expr)> = Vec::new();
    for (i, c) in t.columns.iter().enumerate() {
        if let Some(g) = &c.generated {
            let e = bind_in_table(b, t, &[&g.expr])?.remove(0);
            if e.has_subquery() {
                return Err(Error::InvalidInput(
                    "subqueries prohibited in generated columns".into(),
                ));
            }
            pending.push((i, e));
        }
    }
    let mut done: Vec<(usize, Expr)> = Vec::new();
    while !pending.is_empty() {
        let ready = pending.iter().position(|(_, e)| {
            e.columns()
                .iter()
                .all(|c| !pending.iter().any(|(p, _)| p == c) || done.iter().any(|(d, _)| d == c))
        });
        match ready {
            Some(k) => done.push(pending.remove(k)),
            None => {
                return Err(Error::InvalidInput(format!(
                    "generated column loop on \"{}\"",
                    t.columns[pending[0].0].name
                )));
            }
        }
    }
    Ok(done)
}

fn not_null(t: &TableDef, i: usize) -> Error {
    Error::Constraint(format!("NOT NULL constraint failed: {}.{}", t.name, t.columns[i].name))
}

/// The table a DML statement writes, `qualifier` the schema it named.
fn writable_table(schema: &Schema, name: &str, qualifier: Option<&str>) -> Result<Arc<TableDef>> {
    if catalog::is_schema_table(name) || catalog::is_temp_schema_table(name) {
        return Err(Error::InvalidInput(format!("table {name} may not be modified")));
    }
    if schema.view(name).is_some() {
        return Err(Error::InvalidInput(format!("cannot modify {name} because it is a view")));
    }
    schema.table(name).cloned().ok_or_else(|| catalog::no_such_table(qualifier, name))
}

/// RETURNING: binds the items over the table row and evaluates them.
struct Returning {
    exprs: Vec<Expr>,
    names: Vec<String>,
    rows: Vec<Row>,
}

impl Returning {
    fn new(
        b: &mut Binder,
        t: &Arc<TableDef>,
        items: Option<&Vec<ast::SelectItem>>,
    ) -> Result<Option<Returning>> {
        let Some(items) = items else { return Ok(None) };
        let mut exprs = Vec::new();
        let mut names = Vec::new();
        b.push_scope(table_scope(t));
        let r = (|| {
            for it in items {
                match it {
                    ast::SelectItem::Wildcard(_) => {
                        for (i, c) in t.columns.iter().enumerate() {
                            exprs.push(Expr::Column(i));
                            names.push(c.name.clone());
                        }
                    }
                    ast::SelectItem::UnnamedExpr(e) => {
                        exprs.push(b.bind_expr(e)?);
                        names.push(match e {
                            ast::Expr::Identifier(id) => id.value.clone(),
                            e => e.to_string(),
                        });
                    }
                    ast::SelectItem::ExprWithAlias { expr, alias } => {
                        exprs.push(b.bind_expr(expr)?);
                        names.push(alias.value.clone());
                    }
                    other => return Err(Error::Unsupported(format!("RETURNING {other}"))),
                }
            }
            Ok(())
        })();
        b.pop_scope();
        r?;
        Ok(Some(Returning { exprs, names, rows: Vec::new() }))
    }

    fn add(&mut self, local: &[Value], cx: &Context) -> Result<()> {
        let r = self.exprs.iter().map(|e| e.eval(local, cx)).collect::<Result<_>>()?;
        self.rows.push(r);
        Ok(())
    }
}

fn finish(affected: u64, ret: Option<Returning>) -> DmlResult {
    match ret {
        Some(r) => DmlResult { affected, columns: r.names, returning: Some(r.rows) },
        None => DmlResult { affected, columns: Vec::new(), returning: None },
    }
}

/// The rows an INSERT writes, bound; materialised before the first write.
pub(crate) enum Source {
    /// `DEFAULT VALUES`: one row of defaults.
    Default,
    Exprs(Vec<Vec<Expr>>),
    Plan(Box<crate::planner::QueryPlan>),
}

impl Source {
    pub(crate) fn bind(b: &mut Binder, ins: &ast::Insert) -> Result<Source> {
        Ok(match &ins.source {
            None => Source::Default,
            Some(q) => match q.body.as_ref() {
                ast::SetExpr::Values(v)
                    if q.with.is_none() && q.order_by.is_none() && q.limit_clause.is_none() =>
                {
                    b.push_scope(Scope::default());
                    let rows = v
                        .rows
                        .iter()
                        .map(|r| {
                            r.content.iter().map(|e| b.bind_expr(e)).collect::<Result<Vec<_>>>()
                        })
                        .collect::<Result<Vec<_>>>();
                    b.pop_scope();
                    Source::Exprs(rows?)
                }
                _ => Source::Plan(Box::new(plan_query(b, q)?)),
            },
        })
    }

    /// The rows (empty ones for DEFAULT VALUES).
    pub(crate) fn rows(&self, cx: &Context) -> Result<Vec<Row>> {
        Ok(match self {
            Source::Default => vec![Vec::new()],
            Source::Exprs(rows) => rows
                .iter()
                .map(|r| r.iter().map(|e| e.eval(&[], cx)).collect::<Result<Vec<_>>>())
                .collect::<Result<_>>()?,
            Source::Plan(p) => {
                let mut op = build(&p.node);
                let mut out = Vec::new();
                while let Some(r) = op.next(cx)? {
                    out.push(r);
                }
                out
            }
        })
    }
}

/// Resolves parameters of a bound statement into slot order.
pub type ParamResolver<'p> = &'p dyn Fn(&crate::planner::ParamMap) -> Result<Vec<Value>>;

pub fn insert(
    store: &dyn RowStore,
    schema: &Schema,
    ins: &ast::Insert,
    params: ParamResolver,
    fk: &Checks,
) -> Result<DmlResult> {
    let (name, qualifier) = match &ins.table {
        ast::TableObject::TableName(n) => (object_name(n)?, catalog::qualifier(n)),
        other => return Err(Error::Unsupported(format!("INSERT INTO {other}"))),
    };
    if let Some(v) = schema.view(&name) {
        return super::trigger::insert_into_view(store, schema, v, ins, params, fk)
            .map(|n| finish(n, None));
    }
    let t = writable_table(schema, &name, qualifier)?;
    let action = match ins.or {
        Some(ast::SqliteOnConflict::Ignore) => Conflict::Ignore,
        Some(ast::SqliteOnConflict::Replace) => Conflict::Replace,
        _ if ins.replace_into => Conflict::Replace,
        _ => Conflict::Abort,
    };
    let clauses = crate::parse::upsert_clauses(ins).map_err(Error::Unsupported)?;
    let alias = match &ins.table_alias {
        Some(a) if !a.explicit => {
            return Err(Error::Parse(format!("near \"{}\": syntax error", a.alias.value)));
        }
        Some(a) => a.alias.value.clone(),
        None => t.name.clone(),
    };
    let names: Vec<String> = ins.columns.iter().map(object_name).collect::<Result<_>>()?;
    let cols = column_positions(&t, &names)?;
    let mut b = Binder::new(schema, store);
    let write = Write::Insert { replace: action == Conflict::Replace };
    let target = Target::new(&mut b, schema, &t, fk, write)?;
    let upsert = match clauses.is_empty() {
        true => None,
        false => Some(Upsert::bind(&mut b, schema, fk, &target, &clauses, &alias)?),
    };
    let mut ret = Returning::new(&mut b, &t, ins.returning.as_ref())?;
    let src = Source::bind(&mut b, ins)?;
    let pv = params(&b.params)?;
    let cache = ExecState::default();
    let cx = Context::new(store, &pv, &cache);
    let rows = src.rows(&cx)?;
    let default_values = matches!(src, Source::Default);
    let n = write_rows(
        store,
        &cx,
        &target,
        &cols,
        !names.is_empty(),
        rows,
        default_values,
        action,
        upsert.as_ref(),
        ret.as_mut(),
    )?;
    target.finish(store)?;
    Ok(finish(n, ret))
}

/// Positions of the named columns (all columns when none are named).
/// The position [`column_positions`] gives `rowid`, `oid` or `_rowid_`
/// in a table without an INTEGER PRIMARY KEY: the row's own rowid.
const ROWID_SLOT: usize = usize::MAX;

fn column_positions(t: &TableDef, names: &[String]) -> Result<Vec<usize>> {
    if names.is_empty() {
        // Generated columns take no value.
        return Ok((0..t.columns.len()).filter(|&i| t.columns[i].generated.is_none()).collect());
    }
    names
        .iter()
        .map(|n| {
            if let Some(i) = t.column_index(n) {
                if t.columns[i].generated.is_some() {
                    return Err(Error::InvalidInput(format!(
                        "cannot INSERT into generated column \"{}\"",
                        t.columns[i].name
                    )));
                }
                return Ok(i);
            }
            // SQLite: the rowid's names, when no column has them, name the
            // rowid (its alias column, if the table has one); a WITHOUT
            // ROWID table has none.
            if !t.without_rowid
                && ["rowid", "oid", "_rowid_"].iter().any(|r| n.eq_ignore_ascii_case(r))
            {
                return Ok(t.rowid_alias.unwrap_or(ROWID_SLOT));
            }
            Err(Error::InvalidInput(format!("table {} has no column named {n}", t.name)))
        })
        .collect()
}

/// Inserts source rows (values for `cols`), filling defaults.
#[allow(clippy::too_many_arguments)]
fn write_rows(
    store: &dyn RowStore,
    cx: &Context,
    target: &Target,
    cols: &[usize],
    named: bool,
    rows: Vec<Row>,
    default_values: bool,
    action: Conflict,
    upsert: Option<&Upsert>,
    mut ret: Option<&mut Returning>,
) -> Result<u64> {
    let t = &target.table;
    let identity_cols =
        cols.len() == t.columns.len() && cols.iter().enumerate().all(|(i, c)| i == *c);
    let mut n = 0;
    for src_row in rows {
        let given = if default_values { Vec::new() } else { src_row };
        if !default_values && given.len() != cols.len() {
            return Err(Error::InvalidInput(if !named {
                format!(
                    "table {} has {} columns but {} values were supplied",
                    t.name,
                    cols.len(),
                    given.len()
                )
            } else {
                format!("{} values for {} columns", given.len(), cols.len())
            }));
        }
        let identity = identity_cols && !default_values;
        // A value given for the rowid of a table without an alias.
        let mut explicit = Value::Null;
        let row = if identity {
            // Every column given in table order (the common `VALUES (…)`):
            // the row is the given one; room for the rowid `table_row` adds.
            let mut row = given;
            row.reserve_exact(1);
            row
        } else {
            let mut row: Row = Vec::with_capacity(t.columns.len() + 1);
            let mut set = vec![false; t.columns.len()];
            row.resize(t.columns.len(), Value::Null);
            for (v, c) in given.into_iter().zip(cols) {
                if *c == ROWID_SLOT {
                    explicit = v;
                    continue;
                }
                row[*c] = v;
                set[*c] = true;
            }
            for (i, d) in target.defaults.iter().enumerate() {
                if let (false, Some(d)) = (set[i], d) {
                    row[i] = d.eval(&[], cx)?;
                }
            }
            row
        };
        let explicit = match explicit {
            Value::Null => None,
            v => Some(rowid_value(v)?),
        };
        if target.triggers.is_some() {
            let new = target.pending_row(&row, explicit);
            if !target.before(store, None, Some(&new))? {
                continue;
            }
        }
        let written = match upsert {
            None => target.insert(store, cx, row, explicit, action)?,
            Some(u) => match target.prepare(store, cx, row, explicit, action)? {
                None => None,
                Some((rowid, local)) => match u.resolve(store, cx, target, rowid, &local)? {
                    Resolved::Insert => target.store_row(store, cx, rowid, local, action)?,
                    Resolved::Nothing => None,
                    Resolved::Updated(row) => {
                        // The update (or its triggers) may have moved rows.
                        target.max_rowid.set(None);
                        n += 1;
                        if let Some(r) = ret.as_deref_mut() {
                            r.add(&row, cx)?;
                        }
                        continue;
                    }
                },
            },
        };
        if let Some(local) = written {
            n += 1;
            if !t.without_rowid
                && let Some(Value::Integer(rowid)) = local.get(t.columns.len())
            {
                crate::counters::inserted(*rowid);
            }
            target.after(store, None, Some(&local))?;
            if let Some(r) = ret.as_deref_mut() {
                r.add(&local, cx)?;
            }
        }
    }
    Ok(n)
}

/// INSERT from the script fast path: literal rows, no parsing or planning.
pub fn insert_values(
    store: &dyn RowStore,
    schema: &Schema,
    iv: crate::script::InsertValues,
    fk: &Checks,
) -> Result<u64> {
    use crate::script::Conflict as C;
    if let Some(v) = schema.view(&iv.table) {
        let names = iv.columns.unwrap_or_default();
        return super::trigger::insert_rows_into_view(store, schema, v, &names, iv.rows, false, fk);
    }
    let t = writable_table(schema, &iv.table, iv.schema.as_deref())?;
    let action = match iv.or_action {
        Some(C::Ignore) => Conflict::Ignore,
        Some(C::Replace) => Conflict::Replace,
        _ => Conflict::Abort,
    };
    let names = iv.columns.unwrap_or_default();
    let cols = column_positions(&t, &names)?;
    let mut b = Binder::new(schema, store);
    let write = Write::Insert { replace: action == Conflict::Replace };
    let target = Target::new(&mut b, schema, &t, fk, write)?;
    let cache = ExecState::default();
    let cx = Context::new(store, &[], &cache);
    let n = write_rows(
        store,
        &cx,
        &target,
        &cols,
        !names.is_empty(),
        iv.rows,
        false,
        action,
        None,
        None,
    )?;
    target.finish(store)?;
    Ok(n)
}

/// `[WITH …] DELETE FROM t [WHERE …] [RETURNING …]`.
pub fn delete(
    store: &dyn RowStore,
    schema: &Schema,
    del: &ast::Delete,
    with: Option<&ast::With>,
    params: ParamResolver,
    fk: &Checks,
) -> Result<DmlResult> {
    if let Some(v) = view_target(schema, del)? {
        if del.returning.is_some() {
            return Err(Error::Unsupported("RETURNING on a view".into()));
        }
        if with.is_some() {
            return Err(Error::Unsupported("WITH … DELETE of a view".into()));
        }
        return super::trigger::delete_from_view(
            store,
            schema,
            &v,
            del.selection.as_ref(),
            params,
            fk,
        )
        .map(|n| finish(n, None));
    }
    if del.using.is_some() {
        return Err(Error::Parse("near \"USING\": syntax error".into()));
    }
    let t = delete_target(schema, del)?;
    delete_rows(
        store,
        schema,
        &t,
        with,
        del.selection.as_ref(),
        del.returning.as_ref(),
        params,
        fk,
        Write::Delete,
    )
}

/// The implicit `DELETE FROM t` that `DROP TABLE` runs when foreign keys
/// are on (their actions and checks, no triggers).
pub fn delete_for_drop(
    store: &dyn RowStore,
    schema: &Schema,
    t: &Arc<TableDef>,
    fk: &Checks,
) -> Result<()> {
    let none = |_: &crate::planner::ParamMap| Ok(Vec::new());
    delete_rows(store, schema, t, None, None, None, &none, fk, Write::Drop).map(|_| ())
}

/// The view a DELETE names, if it names one.
fn view_target(schema: &Schema, del: &ast::Delete) -> Result<Option<Arc<catalog::ViewDef>>> {
    let from = match &del.from {
        ast::FromTable::WithFromKeyword(v) | ast::FromTable::WithoutKeyword(v) => v,
    };
    Ok(match from.as_slice() {
        [ast::TableWithJoins { relation: ast::TableFactor::Table { name, .. }, .. }] => {
            schema.view(&object_name(name)?).cloned()
        }
        _ => None,
    })
}

fn delete_target(schema: &Schema, del: &ast::Delete) -> Result<Arc<TableDef>> {
    let from = match &del.from {
        ast::FromTable::WithFromKeyword(v) | ast::FromTable::WithoutKeyword(v) => v,
    };
    let [twj] = from.as_slice() else {
        return Err(Error::Unsupported("DELETE from several tables".into()));
    };
    let (name, qualifier) = match &twj.relation {
        ast::TableFactor::Table { name, .. } => (object_name(name)?, catalog::qualifier(name)),
        other => return Err(Error::Unsupported(format!("DELETE FROM {other}"))),
    };
    writable_table(schema, &name, qualifier)
}

#[allow(clippy::too_many_arguments)]
fn delete_rows(
    store: &dyn RowStore,
    schema: &Schema,
    t: &Arc<TableDef>,
    with: Option<&ast::With>,
    selection: Option<&ast::Expr>,
    returning: Option<&Vec<ast::SelectItem>>,
    params: ParamResolver,
    fk: &Checks,
    write: Write,
) -> Result<DmlResult> {
    let mut b = Binder::new(schema, store);
    if let Some(w) = with {
        crate::planner::push_ctes(&mut b, w);
    }
    let target = Target::new(&mut b, schema, t, fk, write)?;
    let mut ret = Returning::new(&mut b, t, returning)?;
    let node = plan_table_scan(&mut b, t, selection)?;
    let pv = params(&b.params)?;
    let cache = ExecState::default();
    let cx = Context::new(store, &pv, &cache);
    let mut op = build(&node);
    // Every row is picked before any is deleted; past the budget the
    // picked rows wait on disk.
    let mut doomed = crate::exec::sort::Spool::new(cx.budget);
    while let Some(r) = op.next(&cx)? {
        doomed.push(r)?;
    }
    drop(op);
    let ncols = t.columns.len();
    let reread = target.triggers.is_some() || target.keys.as_ref().is_some_and(|k| k.is_parent());
    let mut n = 0;
    let mut doomed = doomed.into_rows()?;
    while let Some(mut old) = doomed.next_row()? {
        let Value::Integer(rowid) = old[ncols] else {
            return Err(Error::Corrupt("rowid is not an integer".into()));
        };
        if reread {
            // A trigger or cascade of an earlier row may have changed or
            // removed it.
            match store.get(t, rowid)? {
                Some(now) => old = table_row(t, rowid, now),
                None => continue,
            }
        }
        if target.triggers.is_some() {
            if !target.before(store, Some(&old), None)? {
                continue;
            }
            match store.get(t, rowid)? {
                Some(now) => old = table_row(t, rowid, now),
                None => continue,
            }
        }
        let mut stored = old[..ncols].to_vec();
        if let Some(a) = t.rowid_alias {
            stored[a] = Value::Null;
        }
        target.delete(store, &cx, rowid, &stored)?;
        n += 1;
        target.parent_gone(store, &old, None)?;
        target.after(store, Some(&old), None)?;
        if let Some(r) = &mut ret {
            r.add(&old, &cx)?;
        }
    }
    Ok(finish(n, ret))
}

/// The rowid a value written to the rowid (or its INTEGER PRIMARY KEY
/// alias) gives, as SQLite's `OP_MustBeInt`: INTEGER affinity must make it
/// an integer, and a REAL that is exactly -2^63 is that integer (column
/// affinity keeps it a REAL; the rowid takes it — measured against
/// SQLite). Anything else is SQLite's `datatype mismatch`.
pub(crate) fn rowid_value(v: Value) -> Result<i64> {
    match v {
        Value::Real(-9_223_372_036_854_775_808.0) => Ok(i64::MIN),
        v => match Affinity::Integer.apply(v) {
            Value::Integer(i) => Ok(i),
            _ => Err(Error::InvalidInput("datatype mismatch".into())),
        },
    }
}
