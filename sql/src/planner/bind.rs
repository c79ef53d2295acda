//! Name resolution and expression lowering: `ast::Expr` → [`Expr`].

use std::collections::BTreeSet;
use std::sync::Arc;

use sqlparser::ast;

use super::{AggCall, JoinKind, SortKey, SubPlan};
use crate::catalog::{Schema, TableDef, object_name};
use crate::exec::vals::{self, Affinity, Collation};
use crate::expr::{ArithOp, CmpOp, Expr, SubKind};
use crate::storage::RowStore;
use crate::value::Value;
use crate::{Error, Result};

/// Parameter slots of a statement: index → name (`None` for `?`/`?N`).
#[derive(Clone, Debug, Default)]
pub struct ParamMap {
    pub names: Vec<Option<String>>,
}

impl ParamMap {
    fn slot(&mut self, p: &str) -> Result<usize> {
        if p == "?" {
            self.names.push(None);
            return Ok(self.names.len() - 1);
        }
        if let Some(n) = p.strip_prefix('?') {
            let i: usize = n
                .parse()
                .ok()
                .filter(|i| (1..=32766).contains(i))
                .ok_or_else(|| Error::InvalidInput(format!("bad parameter: {p}")))?;
            if self.names.len() < i {
                self.names.resize(i, None);
            }
            return Ok(i - 1);
        }
        if let Some(i) = self.names.iter().position(|n| n.as_deref() == Some(p)) {
            return Ok(i);
        }
        self.names.push(Some(p.to_string()));
        Ok(self.names.len() - 1)
    }
}

/// A common table expression visible by name.
#[derive(Clone, Debug)]
pub struct Cte {
    /// Lowercase.
    pub name: String,
    /// The column list `name(a, b)`; empty: the body's names.
    pub columns: Vec<String>,
    pub state: CteState,
}

/// What a reference to a CTE means while planning.
#[derive(Clone, Debug)]
pub enum CteState {
    /// Ordinary: a reference plans the body in its place.
    Body(Box<ast::Query>),
    /// Its own body is being planned where it may not name itself (the
    /// initial select, or a body that is no UNION): a reference is circular.
    Forbidden,
    /// Its recursive select is being planned: a reference at `depth` reads
    /// the working row `id`; `uses` counts the references.
    Working { id: usize, depth: usize, columns: Vec<(String, Option<Affinity>)>, uses: usize },
}

/// One relation visible by name in a scope.
#[derive(Clone, Debug)]
pub struct ScopeTable {
    pub name: String,
    pub columns: Vec<(String, Option<Affinity>, Collation)>,
    pub offset: usize,
    /// Local position of the rowid column, for tables.
    pub rowid: Option<usize>,
    pub table: Option<Arc<TableDef>>,
    /// Columns merged by USING / NATURAL: only reachable qualified.
    pub hidden: Vec<String>,
    /// How the relation joins those before it (decides what a merged
    /// column's unqualified name reads, see [`Binder::resolve`]).
    pub join: JoinKind,
    /// The table-valued function the relation is (its `value` column may
    /// carry the JSON subtype).
    pub func: Option<crate::func::TableFunc>,
    /// A row that is no FROM source (an upsert's `excluded`): SQLite's
    /// `sqlite3ReferencesSrcList` finds no table for its columns, so an
    /// aggregate naming only them belongs to the query it is written in.
    pub pseudo_row: bool,
}

impl ScopeTable {
    pub fn width(&self) -> usize {
        self.columns.len() + usize::from(self.rowid.is_some())
    }
}

/// The column [`Binder::watch`] looks for, and the identifiers (their
/// spans in the text being planned) found to name it.
#[derive(Clone, Debug, Default)]
pub struct ColumnWatch {
    pub table: String,
    pub column: String,
    pub hits: Vec<sqlparser::tokenizer::Span>,
}

/// The names of one query level.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    pub tables: Vec<ScopeTable>,
    pub width: usize,
}

/// A bound subquery with its columns' affinities and collations.
pub type RowSubquery = (Arc<SubPlan>, Vec<Option<Affinity>>, Vec<Option<Collation>>);

/// What a query level learned about its references to enclosing levels.
#[derive(Clone, Debug, Default)]
pub struct LevelInfo {
    pub correlated: bool,
    pub outer_refs: BTreeSet<usize>,
}

pub struct Binder<'a> {
    pub schema: &'a Schema,
    pub store: &'a dyn RowStore,
    pub params: ParamMap,
    pub scopes: Vec<Scope>,
    pub levels: Vec<LevelInfo>,
    /// Where aggregate calls go while binding an aggregate query's
    /// projection, HAVING and ORDER BY; `None` where they are not allowed.
    pub aggs: Option<Vec<AggCall>>,
    /// The `aggs` of enclosing query levels while a subquery is bound, as
    /// (level, their aggs), innermost last: an aggregate whose arguments
    /// name only outer columns belongs to the innermost level they name
    /// (SQLite's rule), and goes there.
    pub outer_aggs: Vec<(usize, Option<Vec<AggCall>>)>,
    /// Every aggregate a subquery placed in an enclosing level, as (that
    /// level, the call's name, whether it was inside a window call's
    /// arguments or window): SQLite refuses one outside the window calls of
    /// a level that has window functions (see `select::no_outer_aggs`).
    pub outer_placed: Vec<(usize, String, bool)>,
    /// How many window calls' arguments and windows are being bound.
    pub in_window: usize,
    /// Levels that are the body of an `EXISTS` (innermost last).
    pub exists_levels: Vec<usize>,
    /// Levels whose select list is being bound and is never evaluated
    /// (an `EXISTS` body's): an aggregate of an enclosing level that
    /// allows none there is not an error in SQLite, whose code for EXISTS
    /// never computes the select list.
    pub unevaluated: Vec<usize>,
    /// Set while binding an `EXISTS`, taken by the query planned next
    /// (its body): see `select::plan_query_here`.
    pub exists_body: bool,
    /// Set just before planning a SELECT that is an EXISTS body (or a part
    /// of one run on its own), taken by `select::plan_select`: its select
    /// list, DISTINCT and ORDER BY are bound but never evaluated.
    pub drop_select_list: bool,
    /// Where window function calls go while binding a SELECT's
    /// projection and ORDER BY; `None` where they are not allowed.
    pub wins: Option<Vec<super::window::BoundWin>>,
    /// The named windows (`WINDOW w AS (…)`) of the SELECT being bound.
    pub windows: Arc<Vec<ast::NamedWindowDefinition>>,
    pub next_sub: usize,
    /// Common table expressions in scope, innermost last.
    pub ctes: Vec<Cte>,
    /// Nesting of queries being planned (each `plan_query` adds one): a
    /// recursive CTE's self-reference must be at the depth of its
    /// recursive select, not in a subquery.
    pub query_depth: usize,
    /// Output aliases of the SELECT being bound, a fallback for names in
    /// HAVING and ORDER BY expressions (as SQLite allows).
    pub aliases: Vec<(String, Expr, Option<String>)>,
    /// The statement's text, for result column names as written.
    pub source: Option<Arc<str>>,
    /// Collects the places that name one column of one table, as the
    /// names resolve (ALTER TABLE … RENAME COLUMN rewrites a view's text
    /// there, as SQLite's `sqlite_rename_column` does). Not carried into
    /// the views a query reads: their texts are their own.
    pub watch: Option<ColumnWatch>,
    /// Set by [`Binder::resolve`] when the name it resolved is the
    /// watched column.
    watch_hit: bool,
    /// Expressions being bound, outermost first (see [`MAX_EXPR_DEPTH`]).
    depth: usize,
    /// One set per aggregate call whose arguments are being bound,
    /// innermost last: the levels (indexes into `scopes`) every column
    /// reference resolved since names, subqueries included. Where the call
    /// belongs follows from it (`place_aggregate`).
    agg_refs: Vec<BTreeSet<usize>>,
    /// Set while binding the top-level AND chain of a WHERE or ON (see
    /// [`Binder::bind_terms`]), taken by the next [`Binder::bind_expr`].
    terms: bool,
}

/// What [`Binder::rewind`] restores: the state a binding adds to that
/// outlives it.
struct BindMark {
    params: Vec<Option<String>>,
    outer_aggs: Vec<usize>,
    outer_placed: usize,
    watch_hits: usize,
}

/// Deepest expression tree a statement may hold (SQLite's
/// `SQLITE_MAX_EXPR_DEPTH`). The parser builds `a OR b OR …` of any length
/// without recursion; binding, planning and evaluating recurse, so the
/// depth is bounded here, with SQLite's message, instead of by the stack.
pub const MAX_EXPR_DEPTH: usize = 1000;

/// Stack left below which a recursive step continues on a fresh heap
/// segment of [`STACK_SEGMENT`] bytes (`stacker`).
pub const STACK_RED_ZONE: usize = 256 << 10;
pub const STACK_SEGMENT: usize = 4 << 20;

/// Most SELECTs one compound (`UNION`, `EXCEPT`, `INTERSECT`) may chain
/// (SQLite's `SQLITE_MAX_COMPOUND_SELECT`).
pub const MAX_COMPOUND_SELECT: usize = 500;

/// Fails when `body` chains more than [`MAX_COMPOUND_SELECT`] SELECTs
/// (counted without recursion, before anything recurses over the chain).
pub fn check_compound(body: &ast::SetExpr) -> Result<()> {
    let mut terms = 1;
    let mut at = body;
    while let ast::SetExpr::SetOperation { left, .. } = at {
        terms += 1;
        if terms > MAX_COMPOUND_SELECT {
            return Err(Error::TooLarge("too many terms in compound SELECT".into()));
        }
        at = left;
    }
    Ok(())
}

/// The row a trigger program runs for: `NEW.x` and `OLD.x` in its
/// statements bind to these values (rows in `exec::table_row` form:
/// columns, then the rowid).
#[derive(Clone, Debug)]
pub struct TriggerRow {
    pub table: Arc<crate::catalog::TableDef>,
    pub old: Option<Vec<Value>>,
    pub new: Option<Vec<Value>>,
}

thread_local! {
    static TRIGGER_ROW: std::cell::RefCell<Option<Arc<TriggerRow>>> =
        const { std::cell::RefCell::new(None) };
}

/// Makes `row` the trigger row of binders on this thread until the guard
/// drops (`None`: outside any trigger program).
pub fn with_trigger_row(row: Option<Arc<TriggerRow>>) -> impl Drop {
    struct Reset(Option<Arc<TriggerRow>>);
    impl Drop for Reset {
        fn drop(&mut self) {
            let old = self.0.take();
            TRIGGER_ROW.with(|t| *t.borrow_mut() = old);
        }
    }
    Reset(TRIGGER_ROW.with(|t| std::mem::replace(&mut *t.borrow_mut(), row)))
}

fn trigger_row() -> Option<Arc<TriggerRow>> {
    TRIGGER_ROW.with(|t| t.borrow().clone())
}

/// `NEW.c` / `OLD.c` of the running trigger program, if `q.c` is one.
fn trigger_value(q: &str, c: &str) -> Result<Option<Expr>> {
    let which = if q.eq_ignore_ascii_case("new") {
        true
    } else if q.eq_ignore_ascii_case("old") {
        false
    } else {
        return Ok(None);
    };
    let Some(tr) = trigger_row() else { return Ok(None) };
    let Some(row) = (if which { tr.new.as_ref() } else { tr.old.as_ref() }) else {
        return Ok(None);
    };
    let t = &tr.table;
    let (i, coll) = match t.column_index(c) {
        Some(i) => (i, t.columns[i].collation),
        None if ["rowid", "oid", "_rowid_"].iter().any(|r| c.eq_ignore_ascii_case(r)) => {
            (t.columns.len(), Collation::Binary)
        }
        None => return Ok(None),
    };
    Ok(row.get(i).cloned().map(|value| Expr::RowValue { value, coll }))
}

/// True if the first result column of `q` (a plain SELECT) is written with
/// a COLLATE of its own (`SELECT a COLLATE NOCASE …`, `SELECT (a COLLATE
/// NOCASE) || b …`): SQLite's `EP_Collate`, which makes that collation win
/// over the other operand's column collation. A column of a subquery or
/// CTE carries its collation as its own, not as an explicit one.
fn first_item_collates(q: &ast::Query) -> bool {
    fn collates(e: &ast::Expr) -> bool {
        use ast::Expr as A;
        match e {
            A::Collate { .. } => true,
            A::Nested(e) | A::UnaryOp { expr: e, .. } | A::Cast { expr: e, .. } => collates(e),
            A::BinaryOp { left, right, .. } => collates(left) || collates(right),
            A::Function(f) => match &f.args {
                ast::FunctionArguments::List(l) => l.args.iter().any(|a| match a {
                    ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(e)) => collates(e),
                    _ => false,
                }),
                _ => false,
            },
            _ => false,
        }
    }
    let ast::SetExpr::Select(s) = q.body.as_ref() else { return false };
    match s.projection.first() {
        Some(ast::SelectItem::UnnamedExpr(e) | ast::SelectItem::ExprWithAlias { expr: e, .. }) => {
            collates(e)
        }
        _ => false,
    }
}

/// A name that reaches a table's rowid slot whatever its columns are
/// called, WITHOUT ROWID tables' internal one included, and that SQL text
/// cannot spell (it holds a NUL): how the engine's own rewrites (UPDATE …
/// FROM's join) name the row they are about.
pub(crate) const INTERNAL_ROWID: &str = "\0rowid";

impl<'a> Binder<'a> {
    pub fn new(schema: &'a Schema, store: &'a dyn RowStore) -> Binder<'a> {
        Binder {
            schema,
            store,
            params: ParamMap::default(),
            scopes: Vec::new(),
            levels: Vec::new(),
            aggs: None,
            outer_aggs: Vec::new(),
            outer_placed: Vec::new(),
            in_window: 0,
            exists_levels: Vec::new(),
            unevaluated: Vec::new(),
            exists_body: false,
            drop_select_list: false,
            wins: None,
            windows: Arc::default(),
            next_sub: 0,
            ctes: Vec::new(),
            query_depth: 0,
            aliases: Vec::new(),
            source: None,
            watch: None,
            watch_hit: false,
            depth: 0,
            agg_refs: Vec::new(),
            terms: false,
        }
    }

    /// Records `span` if the name just resolved is the watched column.
    fn watched(&mut self, span: sqlparser::tokenizer::Span) {
        if std::mem::take(&mut self.watch_hit)
            && let Some(w) = &mut self.watch
        {
            w.hits.push(span);
        }
    }

    /// Pushes a scope for a new SELECT at the current level.
    pub fn push_scope(&mut self, scope: Scope) {
        self.scopes.push(scope);
        if self.levels.len() < self.scopes.len() {
            self.levels.push(LevelInfo::default());
        }
    }

    pub fn pop_scope(&mut self) {
        self.scopes.pop();
    }

    fn current(&self) -> &Scope {
        self.scopes.last().expect("binding outside a scope")
    }

    /// Resolves a column name to an expression.
    pub fn resolve(&mut self, qual: Option<&str>, name: &str) -> Result<Option<Expr>> {
        self.watch_hit = false;
        let n = self.scopes.len();
        for level in (0..n).rev() {
            // Matches, left to right. A column merged by USING / NATURAL
            // into an earlier one is the earlier one (INNER, LEFT), itself
            // (RIGHT: the right-most), or with a FULL join the first
            // non-NULL of all of them, as SQLite resolves it.
            let mut found: Vec<usize> = Vec::new();
            let mut pseudo = false;
            let mut ambiguous = false;
            for t in &self.scopes[level].tables {
                if qual.is_some_and(|q| !q.eq_ignore_ascii_case(&t.name)) {
                    continue;
                }
                let merged =
                    qual.is_none() && t.hidden.iter().any(|h| h.eq_ignore_ascii_case(name));
                let hit =
                    t.columns.iter().position(|c| c.0.eq_ignore_ascii_case(name)).or_else(|| {
                        let is_rowid = ["rowid", "oid", "_rowid_"]
                            .iter()
                            .any(|r| r.eq_ignore_ascii_case(name));
                        // A WITHOUT ROWID table keeps its (internal) rowid
                        // slot in the row, but no name reaches it.
                        let hidden = t.table.as_ref().is_some_and(|t| t.without_rowid);
                        if (is_rowid && !hidden) || name == INTERNAL_ROWID { t.rowid } else { None }
                    });
                let Some(i) = hit else { continue };
                if let Some(w) = &self.watch
                    && t.table.as_ref().is_some_and(|tt| tt.name.eq_ignore_ascii_case(&w.table))
                    && t.columns.get(i).is_some_and(|c| c.0.eq_ignore_ascii_case(&w.column))
                {
                    self.watch_hit = true;
                }
                if merged {
                    match t.join {
                        JoinKind::Right if !found.is_empty() => found = vec![t.offset + i],
                        JoinKind::Full if !found.is_empty() => found.push(t.offset + i),
                        _ => {}
                    }
                    continue;
                }
                if !found.is_empty() {
                    ambiguous = true;
                }
                found = vec![t.offset + i];
                pseudo = t.pseudo_row;
            }
            if ambiguous {
                return Err(Error::InvalidInput(format!("ambiguous column name: {name}")));
            }
            if found.len() > 1 {
                let mut args = Vec::new();
                for index in found {
                    args.push(self.at_level(level, index));
                }
                return Ok(Some(self.using_coalesce(args)));
            }
            if !found.is_empty() && !pseudo {
                self.referenced(level);
            }
            if let Some(&index) = found.first() {
                let json_type = self.json_type_column(level, index);
                let at = |i: usize| {
                    if level == n - 1 {
                        Expr::Column(i)
                    } else {
                        Expr::Outer { depth: n - 1 - level, index: i }
                    }
                };
                if level < n - 1 {
                    for l in level + 1..n {
                        self.levels[l].correlated = true;
                    }
                    self.levels[level + 1].outer_refs.insert(index);
                    if let Some(t) = json_type {
                        self.levels[level + 1].outer_refs.insert(t);
                    }
                }
                let e = at(index);
                return Ok(Some(match json_type {
                    // json_each's `value`: JSON when its row's type is an
                    // array or an object.
                    Some(t) => Expr::Json {
                        value: Box::new(e),
                        when: Some(Box::new(Expr::InList {
                            expr: Box::new(at(t)),
                            list: vec![
                                Expr::Literal(Value::Text("array".into())),
                                Expr::Literal(Value::Text("object".into())),
                            ],
                            affs: vec![None, None],
                            coll: Collation::Binary,
                            negated: false,
                        })),
                    },
                    None => e,
                }));
            }
        }
        Ok(None)
    }

    /// The first non-NULL of the columns a USING / NATURAL column of a
    /// RIGHT or FULL join merges; its affinity and collation are its first
    /// argument's, as in SQLite.
    pub fn using_coalesce(&self, args: Vec<Expr>) -> Expr {
        let coll = args.first().and_then(|a| self.collation(a)).unwrap_or(Collation::Binary);
        Expr::Call {
            func: crate::func::Func::Scalar(crate::func::Scalar::UsingCoalesce),
            args,
            coll,
        }
    }

    /// Column `index` of scope `level`, as read from the innermost level
    /// (an outer reference, recorded as one, when `level` is not it).
    fn at_level(&mut self, level: usize, index: usize) -> Expr {
        self.referenced(level);
        let n = self.scopes.len();
        if level == n - 1 {
            return Expr::Column(index);
        }
        for l in level + 1..n {
            self.levels[l].correlated = true;
        }
        self.levels[level + 1].outer_refs.insert(index);
        Expr::Outer { depth: n - 1 - level, index }
    }

    /// For the `value` column of a table-valued function whose values may
    /// carry the JSON subtype: the index of its row's `type` column.
    fn json_type_column(&self, level: usize, index: usize) -> Option<usize> {
        let t = self.scopes[level]
            .tables
            .iter()
            .find(|t| index >= t.offset && index < t.offset + t.width())?;
        let (value, ty) = t.func?.json_value_column()?;
        (index == t.offset + value).then_some(t.offset + ty)
    }

    fn column_meta(&self, level: usize, index: usize) -> Option<(Option<Affinity>, Collation)> {
        for t in &self.scopes.get(level)?.tables {
            if index >= t.offset && index < t.offset + t.width() {
                let i = index - t.offset;
                return Some(match t.columns.get(i) {
                    Some(c) => (c.1, c.2),
                    None => (Some(Affinity::Integer), Collation::Binary), // the rowid
                });
            }
        }
        None
    }

    /// The affinity of a bound expression (columns and CASTs have one).
    pub fn aff(&self, e: &Expr) -> Option<Affinity> {
        let n = self.scopes.len();
        match e {
            Expr::Column(i) => self.column_meta(n.checked_sub(1)?, *i).and_then(|m| m.0),
            Expr::Outer { depth, index } => {
                self.column_meta(n.checked_sub(1 + depth)?, *index).and_then(|m| m.0)
            }
            Expr::Cast(_, a) => Some(*a),
            // COLLATE keeps its operand's affinity; a scalar subquery has
            // its column's.
            Expr::Collate(e, _) => self.aff(e),
            Expr::Sub { kind: SubKind::Scalar, aff, .. } => *aff,
            Expr::Call {
                func: crate::func::Func::Scalar(crate::func::Scalar::UsingCoalesce),
                args,
                ..
            } => args.first().and_then(|a| self.aff(a)),
            // json_each's `value`: still its column.
            Expr::Json { value, when: Some(_) } => self.aff(value),
            _ => None,
        }
    }

    /// The collation of a bound expression, by SQLite's rule
    /// (`sqlite3ExprCollSeq`): an explicit COLLATE, a column's declared
    /// collation, through CAST and unary `+`; past any other operator only
    /// an explicit COLLATE inside it counts (the left-most).
    pub fn collation(&self, e: &Expr) -> Option<Collation> {
        match e {
            Expr::Collate(_, c) => Some(*c),
            Expr::RowValue { coll, .. } => Some(*coll),
            Expr::Column(_) | Expr::Outer { .. } | Expr::Json { when: Some(_), .. } => {
                self.column_coll(e)
            }
            Expr::Cast(inner, _) | Expr::Identity(inner) => self.collation(inner),
            e if e.has_explicit_collation() => {
                let mut found = None;
                e.for_each_child(&mut |c| {
                    if found.is_none() && c.has_explicit_collation() {
                        found = self.collation(c);
                    }
                });
                found
            }
            _ => None,
        }
    }

    /// The declared collation of a bound column reference (`None` for
    /// anything else).
    pub fn column_coll(&self, e: &Expr) -> Option<Collation> {
        let n = self.scopes.len();
        match e {
            Expr::Column(i) => self.column_meta(n.checked_sub(1)?, *i).map(|m| m.1),
            Expr::Outer { depth, index } => {
                self.column_meta(n.checked_sub(1 + depth)?, *index).map(|m| m.1)
            }
            Expr::Json { value, when: Some(_) } => self.column_coll(value),
            _ => None,
        }
    }

    /// The collation of a comparison (`sqlite3BinaryCompareCollSeq`): an
    /// explicit COLLATE on the left, then on the right, then the left
    /// operand's collation, then the right one's; else BINARY.
    pub fn comparison_coll(&self, l: &Expr, r: &Expr) -> Collation {
        let c = if l.has_explicit_collation() {
            self.collation(l)
        } else if r.has_explicit_collation() {
            self.collation(r)
        } else {
            self.collation(l).or_else(|| self.collation(r))
        };
        c.unwrap_or(Collation::Binary)
    }

    /// Binds a WHERE or ON: as [`Self::bind_expr`], but its top-level
    /// AND chain is kept whole, each conjunct a term of its own, as
    /// SQLite's `whereSplit` makes them before any term is simplified
    /// (`x AND 0` there still codes `x`; see [`Self::binary`]).
    pub fn bind_terms(&mut self, e: &ast::Expr) -> Result<Expr> {
        self.terms = true;
        let r = self.bind_expr(e);
        self.terms = false;
        r
    }

    pub fn bind_expr(&mut self, e: &ast::Expr) -> Result<Expr> {
        if self.depth >= MAX_EXPR_DEPTH {
            return Err(Error::TooLarge(format!(
                "Expression tree is too large (maximum depth {MAX_EXPR_DEPTH})"
            )));
        }
        self.depth += 1;
        // Binding frames are large: grow the stack on the heap when little
        // is left, so a deep tree fits on any thread (even 2 MiB ones).
        let r = stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || self.bind_expr_at_depth(e));
        self.depth -= 1;
        r
    }

    /// `RAISE(IGNORE)` / `RAISE(ABORT|FAIL|ROLLBACK, message)`, only in a
    /// trigger program.
    fn raise(&mut self, f: &ast::Function) -> Result<Expr> {
        use crate::error::RaiseKind as K;
        let ast::FunctionArguments::List(l) = &f.args else {
            return Err(Error::Parse("near \"RAISE\": syntax error".into()));
        };
        let arg = |i: usize| match l.args.get(i) {
            Some(ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(e))) => Some(e),
            _ => None,
        };
        let kind = match arg(0) {
            Some(ast::Expr::Identifier(id)) => match id.value.to_ascii_uppercase().as_str() {
                "IGNORE" => K::Ignore,
                "ABORT" => K::Abort,
                "FAIL" => K::Fail,
                "ROLLBACK" => K::Rollback,
                _ => return Err(Error::Parse(format!("near \"{}\": syntax error", id.value))),
            },
            _ => return Err(Error::Parse("near \"RAISE\": syntax error".into())),
        };
        let want = if kind == K::Ignore { 1 } else { 2 };
        if l.args.len() != want {
            return Err(Error::Parse("near \")\": syntax error".into()));
        }
        if trigger_row().is_none() {
            return Err(Error::InvalidInput(
                "RAISE() may only be used within a trigger-program".into(),
            ));
        }
        let msg = match arg(1) {
            Some(e) => self.bind_expr(e)?,
            None => Expr::Literal(Value::Null),
        };
        Ok(Expr::Raise(kind, Box::new(msg)))
    }

    fn bind_expr_at_depth(&mut self, e: &ast::Expr) -> Result<Expr> {
        use ast::Expr as A;
        let terms = std::mem::take(&mut self.terms);
        if terms {
            // The top-level AND chain of a WHERE/ON: parentheses make no
            // node, every conjunct is a term.
            match e {
                A::Nested(x) => {
                    self.terms = true;
                    return self.bind_expr(x);
                }
                A::BinaryOp { left, op: ast::BinaryOperator::And, right }
                    if !parse_folds_and(left, right) =>
                {
                    self.terms = true;
                    let l = self.bind_expr(left)?;
                    self.terms = true;
                    let r = self.bind_expr(right)?;
                    return Ok(Expr::And(Box::new(l), Box::new(r)));
                }
                _ => {}
            }
        }
        Ok(match e {
            A::Identifier(id) => match self.resolve(None, &id.value)? {
                Some(x) => {
                    self.watched(id.span);
                    x
                }
                None if self.aliases.iter().any(|a| a.0.eq_ignore_ascii_case(&id.value)) => {
                    let a = self.aliases.iter().find(|a| a.0.eq_ignore_ascii_case(&id.value));
                    let (_, x, window_agg) = a.expect("checked");
                    // A copy of the column out of the window call that
                    // allowed its aggregate (see `OutCol::window_agg`).
                    if let Some(name) = window_agg {
                        return Err(Error::InvalidInput(format!("misuse of aggregate: {name}()")));
                    }
                    x.clone()
                }
                // SQLite: a double-quoted name that matches no column is a string.
                None if id.quote_style == Some('"') => {
                    Expr::Literal(Value::Text(id.value.clone().into()))
                }
                None => return Err(Error::InvalidInput(format!("no such column: {}", id.value))),
            },
            A::CompoundIdentifier(parts) => {
                let n = parts.len();
                if n < 2 {
                    return Err(Error::InvalidInput(format!("bad name: {e}")));
                }
                let (q, c) = (&parts[n - 2].value, &parts[n - 1].value);
                match self.resolve(Some(q), c)? {
                    Some(x) => {
                        self.watched(parts[n - 1].span);
                        x
                    }
                    None => match trigger_value(q, c)? {
                        Some(x) if n == 2 => x,
                        _ => return Err(Error::InvalidInput(format!("no such column: {q}.{c}"))),
                    },
                }
            }
            A::Value(v) => match self.hex_integer(v)? {
                Some(n) => Expr::Literal(n),
                None => self.literal(&v.value)?,
            },
            A::Nested(inner) => {
                let x = self.bind_expr(inner)?;
                // A parenthesised column keeps its affinity in SQLite.
                x
            }
            A::Collate { expr, collation } => {
                let name = object_name(collation)?;
                let c = Collation::from_name(&name).ok_or_else(|| {
                    Error::InvalidInput(format!("no such collation sequence: {name}"))
                })?;
                Expr::Collate(Box::new(self.bind_expr(expr)?), c)
            }
            A::UnaryOp { op, expr } => {
                use ast::UnaryOperator as U;
                // Parentheses make no node in SQLite, and a minus sees
                // through unary pluses to a literal: `-(9223372036854775808)`
                // and `-(+(9223372036854775808))` are the smallest integer,
                // `-(+(0.0))` is -0.0 (measured against SQLite; on anything
                // but a literal a minus is `0 - x`).
                let mut operand = expr.as_ref();
                loop {
                    match operand {
                        A::Nested(inner) => operand = inner,
                        A::UnaryOp { op: U::Plus, expr: inner } if *op == U::Minus => {
                            operand = inner
                        }
                        _ => break,
                    }
                }
                if let (U::Minus, A::Value(v)) = (op, operand)
                    && let ast::Value::Number(s, _) = &v.value
                    && s == "9223372036854775808"
                {
                    return Ok(Expr::Literal(Value::Integer(i64::MIN)));
                }
                let literal = matches!(operand, A::Value(_));
                let x = Box::new(self.bind_expr(if literal { operand } else { expr })?);
                match op {
                    U::Minus => match *x {
                        Expr::Literal(Value::Integer(i)) if i != i64::MIN => {
                            Expr::Literal(Value::Integer(-i))
                        }
                        Expr::Literal(Value::Real(f)) => Expr::Literal(Value::Real(-f)),
                        x => Expr::Negate(Box::new(x)),
                    },
                    U::Plus => Expr::Identity(x),
                    U::Not => Expr::Not(x),
                    U::BitwiseNot => Expr::BitNot(x),
                    _ => return Err(Error::Unsupported(format!("operator {op}"))),
                }
            }
            A::BinaryOp { left, op, right } => self.binary(left, op, right)?,
            A::IsNull(x) => Expr::IsNull(Box::new(self.bind_expr(x)?), false),
            A::IsNotNull(x) => Expr::IsNull(Box::new(self.bind_expr(x)?), true),
            A::IsTrue(x) | A::IsNotFalse(x) | A::IsFalse(x) | A::IsNotTrue(x) => {
                let want = matches!(e, A::IsTrue(_) | A::IsNotTrue(_));
                let negate = matches!(e, A::IsNotFalse(_) | A::IsNotTrue(_));
                let v = self.bind_expr(x)?;
                // x IS TRUE: x is non-NULL and truthy.
                Expr::Is {
                    l: Box::new(Expr::Not(Box::new(Expr::Not(Box::new(v))))),
                    r: Box::new(Expr::Literal(Value::Integer(want as i64))),
                    negated: negate,
                    aff: None,
                    coll: Collation::Binary,
                }
            }
            A::IsDistinctFrom(l, r) | A::IsNotDistinctFrom(l, r) => {
                let negated = matches!(e, A::IsDistinctFrom(..));
                let (le, re) = (self.bind_expr(l)?, self.bind_expr(r)?);
                let aff = vals::comparison_affinity(self.aff(&le), self.aff(&re));
                let coll = self.comparison_coll(&le, &re);
                Expr::Is { l: Box::new(le), r: Box::new(re), negated, aff, coll }
            }
            A::Between { expr, negated, low, high } => {
                use super::rowvalue::{self, Operand};
                let x = rowvalue::operand(self, expr)?;
                let lo = rowvalue::operand(self, low)?;
                let hi = rowvalue::operand(self, high)?;
                let (x, lo, hi) = match (x, lo, hi) {
                    (Operand::Scalar(x), Operand::Scalar(lo), Operand::Scalar(hi)) => (x, lo, hi),
                    (x, lo, hi) => return rowvalue::between(self, x, lo, hi, *negated),
                };
                let coll = self.comparison_coll(&x, &lo);
                let a1 = vals::comparison_affinity(self.aff(&x), self.aff(&lo));
                let a2 = vals::comparison_affinity(self.aff(&x), self.aff(&hi));
                let both = Expr::And(
                    Box::new(Expr::Cmp {
                        op: CmpOp::Ge,
                        l: Box::new(x.clone()),
                        r: Box::new(lo),
                        aff: a1,
                        coll,
                    }),
                    Box::new(Expr::Cmp {
                        op: CmpOp::Le,
                        l: Box::new(x),
                        r: Box::new(hi),
                        aff: a2,
                        coll,
                    }),
                );
                if *negated { Expr::Not(Box::new(both)) } else { both }
            }
            A::Like { negated, expr, pattern, escape_char, any: false }
            | A::ILike { negated, expr, pattern, escape_char, any: false } => Expr::Like {
                expr: Box::new(self.bind_expr(expr)?),
                pattern: Box::new(self.bind_expr(pattern)?),
                escape: match escape_char {
                    Some(e) => Some(Box::new(self.bind_expr(e)?)),
                    None => None,
                },
                negated: *negated,
            },
            // `x IN ()` is false and `x NOT IN ()` true whatever `x` is,
            // NULL included, and `x` is never evaluated: SQLite's parser
            // replaces the whole expression by the constant, so a WHERE
            // holding it is a constant term (tested before any row is read).
            // An `x` that calls a function (outside its subqueries) it
            // keeps as `false AND x` / `true OR x`, which the code
            // generator simplifies to the constant: `x` is resolved, never
            // evaluated (see `and_or`) — unless `false AND x` is a WHERE's
            // top-level conjunct, split into the terms `false` and `x`
            // before that, so `x` is coded: an aggregate in it is placed
            // there, maybe a misuse (the constant term still keeps it from
            // being evaluated).
            A::In { expr, target: ast::InTarget::List(list), negated, .. } if list.is_empty() => {
                let c = Expr::Literal(Value::Integer(i64::from(*negated)));
                if !calls_function(expr) {
                    c
                } else if terms && !*negated {
                    let x = Box::new(self.bind_expr(expr)?);
                    Expr::And(Box::new(c), x)
                } else {
                    self.bind_dead(expr)?;
                    c
                }
            }
            A::In { expr, target: ast::InTarget::List(list), negated, .. } => {
                let x = match super::rowvalue::operand(self, expr)? {
                    super::rowvalue::Operand::Scalar(x) => x,
                    super::rowvalue::Operand::Row(xs) => {
                        return super::rowvalue::in_list(self, xs, list, *negated);
                    }
                };
                let xa = self.aff(&x);
                let mut items = Vec::new();
                let mut affs = Vec::new();
                for i in list {
                    let b = self.bind_expr(i)?;
                    affs.push(vals::comparison_affinity(xa, self.aff(&b)));
                    items.push(b);
                }
                let coll = self.collation(&x).unwrap_or(Collation::Binary);
                Expr::InList { expr: Box::new(x), list: items, affs, coll, negated: *negated }
            }
            A::In { expr, target: ast::InTarget::Table { name, args: None }, negated, .. } => {
                // SQLite: `x IN t` means `x IN (SELECT * FROM t)`.
                let q = table_query(name)?;
                let e = A::In {
                    expr: expr.clone(),
                    target: ast::InTarget::Subquery(Box::new(q)),
                    negated: *negated,
                    global: false,
                };
                self.bind_expr(&e)?
            }
            A::In { expr, target: ast::InTarget::Subquery(subquery), negated, .. } => {
                let x = match super::rowvalue::operand(self, expr)? {
                    super::rowvalue::Operand::Scalar(x) => x,
                    super::rowvalue::Operand::Row(xs) => {
                        return super::rowvalue::in_subquery(self, xs, subquery, *negated);
                    }
                };
                let (sub, saff, scoll) = self.bind_subquery(subquery)?;
                if sub.ncols != 1 {
                    return Err(Error::InvalidInput(format!(
                        "sub-select returns {} columns - expected 1",
                        sub.ncols
                    )));
                }
                let aff = vals::comparison_affinity(self.aff(&x), saff);
                // As `x = column` (sqlite3BinaryCompareCollSeq): the left's
                // explicit collation, the subquery column's explicit one,
                // then the left's own (a column's, BINARY by default), then
                // the subquery column's own.
                let coll = if x.has_explicit_collation() {
                    self.collation(&x)
                } else if first_item_collates(subquery) {
                    scoll
                } else {
                    self.collation(&x).or(scoll)
                }
                .unwrap_or(Collation::Binary);
                Expr::Sub {
                    kind: SubKind::In,
                    sub,
                    lhs: vec![x],
                    aff,
                    coll,
                    negated: *negated,
                    outer_offset: 0,
                }
            }
            A::Exists { subquery, negated } => {
                self.exists_levels.push(self.scopes.len());
                self.exists_body = true;
                let sub = self.bind_subquery(subquery);
                self.exists_body = false;
                self.exists_levels.pop();
                let (sub, ..) = sub?;
                Expr::Sub {
                    kind: SubKind::Exists,
                    sub,
                    lhs: Vec::new(),
                    aff: None,
                    coll: Collation::Binary,
                    negated: *negated,
                    outer_offset: 0,
                }
            }
            // A row value where one value belongs.
            A::Tuple(_) => return Err(super::rowvalue::misused()),
            A::Subquery(q) => {
                let (sub, saff, _) = self.bind_subquery(q)?;
                if sub.ncols != 1 {
                    return Err(Error::InvalidInput(format!(
                        "sub-select returns {} columns - expected 1",
                        sub.ncols
                    )));
                }
                Expr::Sub {
                    kind: SubKind::Scalar,
                    sub,
                    lhs: Vec::new(),
                    aff: saff,
                    coll: Collation::Binary,
                    negated: false,
                    outer_offset: 0,
                }
            }
            A::Case { operand, conditions, else_result, .. } => {
                use super::rowvalue::{self, Operand};
                let op = match operand {
                    Some(o) => match rowvalue::operand(self, o)? {
                        Operand::Scalar(x) => Some(x),
                        Operand::Row(xs) => {
                            return rowvalue::case(self, xs, conditions, else_result.as_deref());
                        }
                    },
                    None => None,
                };
                let mut whens = Vec::new();
                let mut aff = None;
                for cw in conditions {
                    let w = self.bind_expr(&cw.condition)?;
                    if let Some(o) = &op {
                        aff = aff.or(vals::comparison_affinity(self.aff(o), self.aff(&w)));
                    }
                    whens.push((w, self.bind_expr(&cw.result)?));
                }
                let else_ = match else_result {
                    Some(e) => Some(Box::new(self.bind_expr(e)?)),
                    None => None,
                };
                // `operand = when` for each WHEN; one collation serves them
                // all: an explicit one on the operand, else on a WHEN value,
                // else the operand's or the first WHEN value's own.
                let coll = op.as_ref().map_or(Collation::Binary, |o| {
                    let first = whens.first().map(|w| &w.0);
                    let explicit_when = whens.iter().find(|w| w.0.has_explicit_collation());
                    match (o.has_explicit_collation(), explicit_when) {
                        (true, _) => self.collation(o),
                        (false, Some(w)) => self.collation(&w.0),
                        (false, None) => {
                            self.collation(o).or_else(|| first.and_then(|w| self.collation(w)))
                        }
                    }
                    .unwrap_or(Collation::Binary)
                });
                Expr::Case { operand: op.map(Box::new), whens, else_, aff, coll }
            }
            A::Cast { expr, data_type, .. } => {
                let aff = Affinity::from_declared_type(Some(&data_type.to_string()));
                Expr::Cast(Box::new(self.bind_expr(expr)?), aff)
            }
            A::Function(f) => self.function(f)?,
            A::Substring { expr, substring_from, substring_for, .. } => {
                let mut args = vec![self.bind_expr(expr)?];
                if let Some(f) = substring_from {
                    args.push(self.bind_expr(f)?);
                }
                if let Some(f) = substring_for {
                    args.push(self.bind_expr(f)?);
                }
                self.call("substr", args)?
            }
            // `trim(x)`, `trim(x, chars)` (parsed as trim_characters) and
            // the standard `TRIM([LEADING|TRAILING|BOTH] [chars FROM] x)`.
            A::Trim { expr, trim_where, trim_what, trim_characters } => {
                let name = match trim_where {
                    None | Some(ast::TrimWhereField::Both) => "trim",
                    Some(ast::TrimWhereField::Leading) => "ltrim",
                    Some(ast::TrimWhereField::Trailing) => "rtrim",
                };
                let mut asts = vec![expr.as_ref()];
                asts.extend(trim_what.as_deref());
                asts.extend(trim_characters.iter().flatten());
                let mut args = Vec::with_capacity(asts.len());
                for a in &asts {
                    args.push(self.bind_expr(a)?);
                }
                self.call(name, args)?
            }
            // sqlparser reads CEIL(x) and FLOOR(x) as their own expressions
            // (with SQL-standard `TO field` and scale forms SQLite lacks).
            A::Ceil { expr, field } | A::Floor { expr, field } => {
                let name = if matches!(e, A::Ceil { .. }) { "ceil" } else { "floor" };
                match field {
                    ast::CeilFloorKind::DateTimeField(ast::DateTimeField::NoDateTime) => {
                        let args = vec![self.bind_expr(expr)?];
                        self.call(name, args)?
                    }
                    ast::CeilFloorKind::Scale(_) => {
                        return crate::func::wrong_args(name);
                    }
                    ast::CeilFloorKind::DateTimeField(_) => {
                        return Err(Error::Parse(format!("near \"TO\": {name}(… TO …)")));
                    }
                }
            }
            _ => return Err(Error::Unsupported(format!("expression {e}"))),
        })
    }

    fn binary(
        &mut self,
        left: &ast::Expr,
        op: &ast::BinaryOperator,
        right: &ast::Expr,
    ) -> Result<Expr> {
        use super::rowvalue::{self, Operand};
        use ast::BinaryOperator as B;
        let comparison =
            matches!(op, B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq | B::Is | B::IsNot);
        if matches!(op, B::And | B::Or) {
            return self.and_or(left, matches!(op, B::And), right);
        }
        let (l, r) = if comparison {
            match (rowvalue::operand(self, left)?, rowvalue::operand(self, right)?) {
                (Operand::Scalar(l), Operand::Scalar(r)) => (l, r),
                (l, r) => return rowvalue::compare(self, l, op, r),
            }
        } else {
            (self.bind_expr(left)?, self.bind_expr(right)?)
        };
        let arith = |o: ArithOp, l: Expr, r: Expr| Expr::Arith(o, Box::new(l), Box::new(r));
        let cmp = |this: &Self, op: CmpOp, l: Expr, r: Expr| {
            let aff = vals::comparison_affinity(this.aff(&l), this.aff(&r));
            let coll = this.comparison_coll(&l, &r);
            Expr::Cmp { op, l: Box::new(l), r: Box::new(r), aff, coll }
        };
        Ok(match op {
            B::Plus => arith(ArithOp::Add, l, r),
            B::Minus => arith(ArithOp::Sub, l, r),
            B::Multiply => arith(ArithOp::Mul, l, r),
            B::Divide => arith(ArithOp::Div, l, r),
            B::Modulo => arith(ArithOp::Rem, l, r),
            B::StringConcat => arith(ArithOp::Concat, l, r),
            B::BitwiseAnd => arith(ArithOp::BitAnd, l, r),
            B::BitwiseOr => arith(ArithOp::BitOr, l, r),
            B::PGBitwiseShiftLeft => arith(ArithOp::Shl, l, r),
            B::PGBitwiseShiftRight => arith(ArithOp::Shr, l, r),
            B::Eq => cmp(self, CmpOp::Eq, l, r),
            B::NotEq => cmp(self, CmpOp::Ne, l, r),
            B::Lt => cmp(self, CmpOp::Lt, l, r),
            B::LtEq => cmp(self, CmpOp::Le, l, r),
            B::Gt => cmp(self, CmpOp::Gt, l, r),
            B::GtEq => cmp(self, CmpOp::Ge, l, r),
            B::Is | B::IsNot => {
                let aff = vals::comparison_affinity(self.aff(&l), self.aff(&r));
                let coll = self.comparison_coll(&l, &r);
                Expr::Is { l: Box::new(l), r: Box::new(r), negated: *op == B::IsNot, aff, coll }
            }
            B::Glob => Expr::Glob { expr: Box::new(l), pattern: Box::new(r), negated: false },
            B::Arrow => self.call("->", vec![l, r])?,
            B::LongArrow => self.call("->>", vec![l, r])?,
            _ => return Err(Error::Unsupported(format!("operator {op}"))),
        })
    }

    /// `0x1F` as the integer it is (`None` for anything else, `X'1F'`
    /// included: [`crate::parse::is_hex_integer`]).
    pub(super) fn hex_integer(&self, v: &ast::ValueWithSpan) -> Result<Option<Value>> {
        let ast::Value::HexStringLiteral(h) = &v.value else { return Ok(None) };
        if !crate::parse::is_hex_integer(v.span, h) {
            return Ok(None);
        }
        crate::value::literal::hex_integer(h, false)
            .map(Some)
            .ok_or_else(|| Error::InvalidInput(format!("hex literal too big: 0x{h}")))
    }

    fn literal(&mut self, v: &ast::Value) -> Result<Expr> {
        use ast::Value as V;
        Ok(Expr::Literal(match v {
            V::Number(s, _) => number_literal(s)?,
            V::SingleQuotedString(s) | V::DoubleQuotedString(s) => Value::Text(s.clone().into()),
            V::HexStringLiteral(h) => Value::Blob(decode_hex(h)?),
            V::Boolean(b) => Value::Integer(*b as i64),
            V::Null => Value::Null,
            V::Placeholder(p) => return Ok(Expr::Param(self.params.slot(p)?)),
            _ => return Err(Error::Unsupported(format!("literal {v}"))),
        }))
    }

    fn function(&mut self, f: &ast::Function) -> Result<Expr> {
        let name = object_name(&f.name)?.to_ascii_lowercase();
        if name == "raise" {
            return self.raise(f);
        }
        if let Some(over) = &f.over {
            if let ast::FunctionArguments::List(l) = &f.args
                && l.clauses.iter().any(|c| matches!(c, ast::FunctionArgumentClause::OrderBy(_)))
            {
                return Err(Error::InvalidInput(format!(
                    "ORDER BY may not be used with non-aggregate {name}()"
                )));
            }
            return self.window_call(&name, f, over);
        }
        if super::window::is_window_only(&name) {
            return Err(Error::InvalidInput(format!("misuse of window function {name}()")));
        }
        // sqlparser reads the keywords CURRENT_DATE, CURRENT_TIME and
        // CURRENT_TIMESTAMP as calls without an argument list; SQLite has
        // no such functions to call with parentheses.
        let keyword =
            matches!(name.as_str(), "current_date" | "current_time" | "current_timestamp");
        if keyword && !matches!(f.args, ast::FunctionArguments::None) {
            return Err(Error::Parse(format!("near \"(\": {name} is not a function")));
        }
        if !f.within_group.is_empty() || f.null_treatment.is_some() || f.uses_odbc_syntax {
            return Err(Error::Unsupported(format!("this form of a call to {name}()")));
        }
        if !matches!(f.parameters, ast::FunctionArguments::None) {
            return Err(Error::Unsupported(format!("parameters of {name}()")));
        }
        let mut order_by: &[ast::OrderByExpr] = &[];
        let (distinct, args) = match &f.args {
            ast::FunctionArguments::None => (false, Vec::new()),
            ast::FunctionArguments::List(l) => {
                for c in &l.clauses {
                    match c {
                        ast::FunctionArgumentClause::OrderBy(o) if order_by.is_empty() => {
                            order_by = o
                        }
                        c => {
                            return Err(Error::Unsupported(format!(
                                "{c} in the arguments of {name}()"
                            )));
                        }
                    }
                }
                (
                    matches!(l.duplicate_treatment, Some(ast::DuplicateTreatment::Distinct)),
                    l.args.clone(),
                )
            }
            ast::FunctionArguments::Subquery(_) => {
                return Err(Error::Unsupported(format!("function {name} over a subquery")));
            }
        };
        let star = args.len() == 1
            && matches!(&args[0], ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Wildcard));
        let arg_exprs = |args: &[ast::FunctionArg]| -> Result<Vec<ast::Expr>> {
            args.iter()
                .map(|a| match a {
                    ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(e)) => Ok(e.clone()),
                    _ => Err(Error::InvalidInput(format!("bad argument to {name}()"))),
                })
                .collect()
        };
        let is_agg = vals::is_aggregate(&name)
            && !(matches!(name.as_str(), "min" | "max") && args.len() > 1);
        if !order_by.is_empty() && !is_agg {
            return Err(Error::InvalidInput(format!(
                "ORDER BY may not be used with non-aggregate {name}()"
            )));
        }
        if star && !order_by.is_empty() {
            return Err(Error::Parse("near \"ORDER\": syntax error".into()));
        }
        if is_agg || star {
            if star && name != "count" {
                return Err(Error::InvalidInput(format!(
                    "wrong number of arguments to function {name}()"
                )));
            }
            let asts = if star { Vec::new() } else { arg_exprs(&args)? };
            // The arguments are bound first: where they point decides the
            // level the aggregate belongs to (`place_aggregate`).
            let mark = self.mark();
            self.agg_refs.push(BTreeSet::new());
            let parts = self.bind_agg_parts(&asts, order_by, f.filter.as_deref());
            let refs = self.agg_refs.pop().unwrap_or_default();
            let (mut bound, mut order, mut filter) = parts?;
            let here = self.scopes.len() - 1;
            // The innermost level the references name, subqueries of the
            // arguments included (`sqlite3ReferencesSrcList`): levels past
            // `here` are those subqueries' own.
            let depth = match refs.range(..here).next_back() {
                Some(&t) if !refs.contains(&here) => here - t,
                _ => 0,
            };
            let has_sub = |e: &Expr| {
                let mut sub = false;
                e.walk(&mut |x| sub |= matches!(x, Expr::Sub { .. }));
                sub
            };
            let rebased = depth > 0
                && bound
                    .iter()
                    .chain(filter.iter())
                    .chain(order.iter().map(|k| &k.expr))
                    .any(has_sub);
            if rebased {
                // A subquery's plan cannot be re-based: bind the parts again
                // at the level the call belongs to, forgetting what the
                // first binding recorded.
                self.rewind(mark);
                (bound, order, filter) = self.at_level_of(here - depth, |b| {
                    b.bind_agg_parts(&asts, order_by, f.filter.as_deref())
                })?;
            }
            // Validate the name and arity now, not at run time.
            vals::Aggregate::new(&name, distinct, asts.len())?;
            let coll = bound.first().and_then(|a| self.collation(a)).unwrap_or(Collation::Binary);
            let json = vals::Aggregate::result_is_json(&name);
            let call = AggCall { name: name.clone(), distinct, args: bound, filter, coll, order };
            let e = self.place_aggregate(call, depth, rebased)?;
            if json {
                return Ok(Expr::Json { value: Box::new(e), when: None });
            }
            return Ok(e);
        }
        if f.filter.is_some() {
            return Err(Error::InvalidInput(format!(
                "FILTER may not be used with non-aggregate {name}()"
            )));
        }
        if distinct {
            return Err(Error::InvalidInput(format!(
                "DISTINCT aggregates must have exactly one argument: {name}() is not an aggregate"
            )));
        }
        let asts = arg_exprs(&args)?;
        let mut bound = Vec::new();
        for a in &asts {
            bound.push(self.bind_expr(a)?);
        }
        Ok(match (name.as_str(), bound.len()) {
            ("like", 2 | 3) => {
                let mut it = bound.into_iter();
                let pattern = Box::new(it.next().expect("2 args"));
                let expr = Box::new(it.next().expect("2 args"));
                Expr::Like { expr, pattern, escape: it.next().map(Box::new), negated: false }
            }
            ("glob", 2) => {
                let mut it = bound.into_iter();
                let pattern = Box::new(it.next().expect("2 args"));
                let expr = Box::new(it.next().expect("2 args"));
                Expr::Glob { expr, pattern, negated: false }
            }
            _ => self.call(&name, bound)?,
        })
    }

    /// Adds an aggregate call to the query level it belongs to and returns
    /// the expression that reads its result. As in SQLite (resolve.c), that
    /// level is the innermost one the call's column references name,
    /// those inside subqueries of its arguments included (`depth` levels
    /// out): the current query when it names a local column (or none at
    /// all), else an enclosing query, where the call is one of *its*
    /// aggregates and the subquery reads the result as an outer value
    /// (after that level's canonical row, see `post_agg`). The call is
    /// bound where it was written, or already at its level when `rebased`.
    /// A level whose clause being bound allows no aggregates (WHERE, GROUP
    /// BY, ON, DML) refuses it.
    fn place_aggregate(&mut self, call: AggCall, depth: usize, rebased: bool) -> Result<Expr> {
        if depth == 0 {
            let Some(aggs) = self.aggs.as_mut() else {
                return Err(Error::InvalidInput(format!(
                    "misuse of aggregate function {}()",
                    call.name
                )));
            };
            aggs.push(call);
            return Ok(Expr::Agg(aggs.len() - 1));
        }
        let n = self.scopes.len();
        let level = n - 1 - depth;
        let width = self.scopes[level].width;
        let name = call.name.clone();
        let unevaluated = self.unevaluated.iter().any(|&l| l > level);
        let Some(slot) = self
            .outer_aggs
            .iter_mut()
            .rev()
            .find(|(l, _)| *l == level)
            .and_then(|(_, a)| a.as_mut())
        else {
            if unevaluated {
                return Ok(Expr::Literal(Value::Null));
            }
            return Err(Error::InvalidInput(format!("misuse of aggregate: {name}()")));
        };
        let call = if rebased {
            call
        } else {
            let mut lower = |e: Expr| lower_outer(e, depth);
            AggCall {
                args: call.args.into_iter().map(&mut lower).collect::<Result<_>>()?,
                filter: call.filter.map(&mut lower).transpose()?,
                order: call
                    .order
                    .into_iter()
                    .map(|k| Ok(SortKey { expr: lower(k.expr)?, ..k }))
                    .collect::<Result<_>>()?,
                ..call
            }
        };
        slot.push(call);
        let index = width + slot.len() - 1;
        self.outer_placed.push((level, name, self.in_window > 0));
        for l in level + 1..n {
            self.levels[l].correlated = true;
        }
        self.levels[level + 1].outer_refs.insert(index);
        Ok(Expr::Outer { depth, index })
    }

    /// A call of the scalar function `name` on bound `args`: resolved now, so an unknown name or a wrong argument count
    /// fails when the statement is prepared. The call's collation is that
    /// of the left-most argument with one (SQLite's rule for `min`, `max`
    /// and `nullif`).
    fn call(&self, name: &str, args: Vec<Expr>) -> Result<Expr> {
        let func = crate::func::Func::resolve(name, args.len())?;
        let coll = args.iter().find_map(|e| self.collation(e)).unwrap_or(Collation::Binary);
        Ok(Expr::Call { func, args, coll })
    }

    /// `left AND right` (`and`) or `left OR right`, simplified as SQLite's
    /// code generator simplifies it (`sqlite3ExprSimplifiedAndOr`): with a
    /// side that is always false (AND) or always true (OR) the result is
    /// that constant and the other side is never evaluated — bound, so its
    /// names must resolve, but an aggregate it would place where none is
    /// allowed is no misuse there (it is never coded).
    fn and_or(&mut self, left: &ast::Expr, and: bool, right: &ast::Expr) -> Result<Expr> {
        if and && parse_folds_and(left, right) {
            return Ok(Expr::Literal(Value::Integer(0)));
        }
        let decides = |e: &ast::Expr| always(e) == Some(!and);
        if decides(left) || decides(right) {
            self.bind_dead(left)?;
            self.bind_dead(right)?;
            return Ok(Expr::Literal(Value::Integer(i64::from(!and))));
        }
        let l = self.bind_expr(left)?;
        let r = self.bind_expr(right)?;
        Ok(if and {
            Expr::And(Box::new(l), Box::new(r))
        } else {
            Expr::Or(Box::new(l), Box::new(r))
        })
    }

    /// Binds `e`, which is never evaluated, for its errors only: names
    /// must resolve, but an aggregate it places in a level that allows
    /// none is no misuse (never coded, SQLite raises nothing).
    fn bind_dead(&mut self, e: &ast::Expr) -> Result<()> {
        let level = self.scopes.len();
        self.unevaluated.push(level);
        let r = self.bind_expr(e);
        self.unevaluated.pop();
        r.map(|_| ())
    }

    /// Notes, for the aggregate calls being bound, a column reference
    /// that resolved at scope `level`.
    fn referenced(&mut self, level: usize) {
        for r in &mut self.agg_refs {
            r.insert(level);
        }
    }

    /// An aggregate call's arguments, ORDER BY and FILTER, bound over the
    /// input row with no aggregates allowed inside.
    #[allow(clippy::type_complexity)]
    fn bind_agg_parts(
        &mut self,
        args: &[ast::Expr],
        order_by: &[ast::OrderByExpr],
        filter: Option<&ast::Expr>,
    ) -> Result<(Vec<Expr>, Vec<SortKey>, Option<Expr>)> {
        let here = self.aggs.take();
        let r = (|| {
            let mut bound = Vec::new();
            for a in args {
                bound.push(self.bind_expr(a)?);
            }
            // ORDER BY inside the call: over the input row, like the
            // arguments (an integer is a constant here, not a column number).
            let mut order = Vec::new();
            for o in order_by {
                let x = self.bind_expr(&o.expr)?;
                let coll = self.collation(&x).unwrap_or(Collation::Binary);
                let desc = matches!(o.options.sort, Some(ast::OrderBySort::Desc));
                let nulls_first = o.options.nulls_first.unwrap_or(!desc);
                order.push(SortKey { expr: x, desc, coll, nulls_first });
            }
            let filter = filter.map(|f| self.bind_expr(f)).transpose()?;
            Ok((bound, order, filter))
        })();
        self.aggs = here;
        r
    }

    /// A point to [`Self::rewind`] to.
    fn mark(&self) -> BindMark {
        BindMark {
            params: self.params.names.clone(),
            outer_aggs: self
                .outer_aggs
                .iter()
                .map(|(_, a)| a.as_ref().map_or(0, Vec::len))
                .collect(),
            outer_placed: self.outer_placed.len(),
            watch_hits: self.watch.as_ref().map_or(0, |w| w.hits.len()),
        }
    }

    /// Forgets what was bound since `mark`: parameters numbered, aggregates
    /// placed in enclosing levels, renamed-column hits. (Levels marked
    /// correlated stay so: that only costs a re-evaluation.)
    fn rewind(&mut self, mark: BindMark) {
        self.params.names = mark.params;
        for ((_, a), n) in self.outer_aggs.iter_mut().zip(mark.outer_aggs) {
            if let Some(a) = a {
                a.truncate(n);
            }
        }
        self.outer_placed.truncate(mark.outer_placed);
        if let Some(w) = &mut self.watch {
            w.hits.truncate(mark.watch_hits);
        }
    }

    /// Runs `f` as if binding at scope `level`, an enclosing one: the
    /// scopes inside it are hidden, and so are its aggregates (an
    /// aggregate placed there from inside `f` nests in the one `f` binds:
    /// a misuse).
    fn at_level_of<T>(
        &mut self,
        level: usize,
        f: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<T> {
        let scopes = self.scopes.split_off(level + 1);
        let levels = self.levels.split_off((level + 1).min(self.levels.len()));
        let keep = self.outer_aggs.iter().position(|(l, _)| *l >= level);
        let outer_aggs = self.outer_aggs.split_off(keep.unwrap_or(self.outer_aggs.len()));
        let exists_levels = self.exists_levels.clone();
        self.exists_levels.retain(|&l| l <= level);
        let unevaluated = self.unevaluated.clone();
        self.unevaluated.retain(|&l| l <= level);
        let aggs = self.aggs.take();
        let wins = self.wins.take();
        let aliases = std::mem::take(&mut self.aliases);
        let r = f(self);
        self.aliases = aliases;
        self.wins = wins;
        self.aggs = aggs;
        self.unevaluated = unevaluated;
        self.exists_levels = exists_levels;
        self.outer_aggs.truncate(keep.unwrap_or(self.outer_aggs.len()));
        self.outer_aggs.extend(outer_aggs);
        self.levels.truncate(level + 1);
        self.levels.extend(levels);
        self.scopes.extend(scopes);
        r
    }

    /// Plans a subquery one level down; returns it, its first column's
    /// affinity and collation.
    pub fn bind_subquery(
        &mut self,
        q: &ast::Query,
    ) -> Result<(Arc<SubPlan>, Option<Affinity>, Option<Collation>)> {
        let (sub, affs, colls) = self.bind_row_subquery(q)?;
        Ok((sub, affs.first().copied().flatten(), colls.first().copied().flatten()))
    }

    /// A subquery and its columns' affinities and collations.
    pub fn bind_row_subquery(&mut self, q: &ast::Query) -> Result<RowSubquery> {
        let depth = self.scopes.len();
        self.levels.truncate(depth);
        let saved_wins = self.wins.take();
        let saved_aliases = std::mem::take(&mut self.aliases);
        self.outer_aggs.push((depth.wrapping_sub(1), self.aggs.take()));
        let plan = super::plan_query(self, q);
        self.aggs = self.outer_aggs.pop().and_then(|(_, a)| a);
        self.wins = saved_wins;
        self.aliases = saved_aliases;
        let plan = plan?;
        let info = self.levels.get(depth).cloned().unwrap_or_default();
        self.levels.truncate(depth);
        let id = self.next_sub;
        self.next_sub += 1;
        Ok((
            Arc::new(SubPlan {
                ncols: plan.columns.len(),
                node: plan.node,
                id,
                correlated: info.correlated,
                outer_refs: info.outer_refs.into_iter().collect(),
            }),
            plan.affinities,
            plan.collations,
        ))
    }

    /// Runs `f` with no enclosing scopes (views, derived tables, CTEs):
    /// [`Self::derived`] with the enclosing queries hidden too.
    pub fn isolated<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let scopes = std::mem::take(&mut self.scopes);
        let levels = std::mem::take(&mut self.levels);
        // Its levels count from 0 again: no aggregate call outside sees them.
        let agg_refs = std::mem::take(&mut self.agg_refs);
        let r = self.derived(f);
        self.agg_refs = agg_refs;
        self.scopes = scopes;
        self.levels = levels;
        r
    }

    /// Runs `f` (planning a FROM subquery) with the enclosing queries'
    /// scopes visible but nothing else of the current one: as in SQLite, a
    /// derived table may read the rows of the queries around the one whose
    /// FROM it is in (a correlated subquery expression), never its sibling
    /// FROM items (those are not in scope yet). It runs inside that query's
    /// context, so its outer depths count the same levels.
    pub fn derived<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let aggs = self.aggs.take();
        let outer_aggs = std::mem::take(&mut self.outer_aggs);
        let exists_levels = std::mem::take(&mut self.exists_levels);
        let unevaluated = std::mem::take(&mut self.unevaluated);
        let wins = self.wins.take();
        let windows = std::mem::take(&mut self.windows);
        let aliases = std::mem::take(&mut self.aliases);
        let source = self.source.take();
        let r = f(self);
        self.source = source;
        self.aggs = aggs;
        self.outer_aggs = outer_aggs;
        self.exists_levels = exists_levels;
        self.unevaluated = unevaluated;
        self.wins = wins;
        self.windows = windows;
        self.aliases = aliases;
        r
    }

    pub fn scope_width(&self) -> usize {
        self.current().width
    }
}

/// An expression bound `depth` levels inside the query it now belongs to,
/// rebased there: references to that level become local columns, those
/// further out come `depth` levels nearer.
fn lower_outer(e: Expr, depth: usize) -> Result<Expr> {
    match e {
        Expr::Outer { depth: d, index } if d == depth => Ok(Expr::Column(index)),
        Expr::Outer { depth: d, index } => Ok(Expr::Outer { depth: d - depth, index }),
        e => e.map_children(&mut |c| lower_outer(c, depth)),
    }
}

/// A literal's truth as SQLite flags it (`EP_IsTrue`/`EP_IsFalse`): an
/// integer (true unless 0) or TRUE/FALSE; `None` for any other literal.
fn literal_truth(v: &ast::Value) -> Option<bool> {
    match v {
        ast::Value::Boolean(b) => Some(*b),
        ast::Value::Number(s, _) => s.parse::<i64>().ok().map(|i| i != 0),
        _ => None,
    }
}

/// Whether SQLite's parser replaces `left AND right` by `0` before any
/// name in it is resolved (`sqlite3ExprAnd`): one side is a false
/// constant leaf and neither calls a function.
fn parse_folds_and(left: &ast::Expr, right: &ast::Expr) -> bool {
    (false_leaf(left) || false_leaf(right)) && !calls_function(left) && !calls_function(right)
}

/// An expression SQLite's parser leaves as a false constant node
/// (`EP_IsFalse`): `0`, FALSE, `x IN ()` with no call in `x`, or an AND
/// it folded to `0`.
fn false_leaf(e: &ast::Expr) -> bool {
    use ast::Expr as A;
    match e {
        A::Nested(x) => false_leaf(x),
        A::Value(v) => literal_truth(&v.value) == Some(false),
        A::In { expr, target: ast::InTarget::List(list), negated: false, .. } => {
            list.is_empty() && !calls_function(expr)
        }
        A::BinaryOp { left, op: ast::BinaryOperator::And, right } => parse_folds_and(left, right),
        _ => false,
    }
}

/// The truth `e` always has as SQLite's `ExprAlwaysTrue`/`ExprAlwaysFalse`
/// see it after `sqlite3ExprSimplifiedAndOr`: an integer literal (true
/// unless 0), TRUE/FALSE, `x IN ()` / `x NOT IN ()`, and AND/OR of such;
/// `None` for anything else.
fn always(e: &ast::Expr) -> Option<bool> {
    use ast::Expr as A;
    match e {
        A::Nested(x) => always(x),
        A::Value(v) => literal_truth(&v.value),
        A::In { target: ast::InTarget::List(list), negated, .. } if list.is_empty() => {
            Some(*negated)
        }
        A::BinaryOp { left, op: ast::BinaryOperator::And, right } => {
            match (always(left), always(right)) {
                (Some(false), _) | (_, Some(false)) => Some(false),
                (Some(true), r) => r,
                (l, Some(true)) => l,
                _ => None,
            }
        }
        A::BinaryOp { left, op: ast::BinaryOperator::Or, right } => {
            match (always(left), always(right)) {
                (Some(true), _) | (_, Some(true)) => Some(true),
                (Some(false), r) => r,
                (l, Some(false)) => l,
                _ => None,
            }
        }
        _ => None,
    }
}

/// Whether `e` calls a function outside its subqueries (SQLite's
/// `EP_HasFunc`; LIKE and GLOB are calls there).
fn calls_function(e: &ast::Expr) -> bool {
    use std::ops::ControlFlow;
    struct Calls {
        queries: usize,
    }
    impl ast::Visitor for Calls {
        type Break = ();
        fn pre_visit_query(&mut self, _: &ast::Query) -> ControlFlow<()> {
            self.queries += 1;
            ControlFlow::Continue(())
        }
        fn post_visit_query(&mut self, _: &ast::Query) -> ControlFlow<()> {
            self.queries -= 1;
            ControlFlow::Continue(())
        }
        fn pre_visit_expr(&mut self, e: &ast::Expr) -> ControlFlow<()> {
            let call = matches!(
                e,
                ast::Expr::Function(_)
                    | ast::Expr::Like { .. }
                    | ast::Expr::ILike { .. }
                    | ast::Expr::BinaryOp { op: ast::BinaryOperator::Glob, .. }
            );
            if call && self.queries == 0 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        }
    }
    ast::Visit::visit(e, &mut Calls { queries: 0 }).is_break()
}

/// `SELECT * FROM name` as an AST.
fn table_query(name: &ast::ObjectName) -> Result<ast::Query> {
    let sql = format!("SELECT * FROM {name}");
    let mut stmts = crate::parse::parse_sql(&sql)?;
    match stmts.pop() {
        Some(ast::Statement::Query(q)) => Ok(*q),
        _ => Err(Error::InvalidInput(format!("bad table name {name}"))),
    }
}

/// A numeric literal token as SQLite reads it (the one literal parser,
/// [`crate::value::literal`]): an integer if it fits, else REAL by SQLite's
/// AtoF; `0x…` hex integers.
pub fn number_literal(s: &str) -> Result<Value> {
    crate::value::parse_number_literal(s)
        .ok_or_else(|| Error::InvalidInput(format!("bad number: {s}")))
}

fn decode_hex(h: &str) -> Result<Vec<u8>> {
    if !h.len().is_multiple_of(2) || !h.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(Error::InvalidInput(format!("malformed blob literal: X'{h}'")));
    }
    (0..h.len())
        .step_by(2)
        .map(|i| {
            u8::from_str_radix(&h[i..i + 2], 16).map_err(|e| Error::InvalidInput(e.to_string()))
        })
        .collect()
}

/// Splits a predicate into its AND-ed parts.
pub fn conjuncts(e: Expr, out: &mut Vec<Expr>) {
    match e {
        Expr::And(l, r) => {
            conjuncts(*l, out);
            conjuncts(*r, out);
        }
        e => out.push(e),
    }
}
