//! Binding window function calls (`f(…) [FILTER (WHERE …)] OVER …`) with
//! SQLite's rules (window.c, windowfunctions.html):
//!
//! - the built-in window functions `row_number`, `rank`, `dense_rank`,
//!   `percent_rank`, `cume_dist`, `ntile`, `lag`, `lead`, `first_value`,
//!   `last_value`, `nth_value`, and every aggregate over a frame;
//! - named windows (`WINDOW w AS (…)`, `OVER w`, `OVER (w ORDER BY …)`)
//!   with SQLite's override rules and messages;
//! - frames `ROWS` / `RANGE` / `GROUPS` with every bound, checked as
//!   SQLite checks them (`unsupported frame specification`, RANGE offsets
//!   need exactly one ORDER BY term); `EXCLUDE` arrives through the parser
//!   (see [`crate::parse`]: `sqlparser` has no EXCLUDE, so the parser
//!   carries it in the window name);
//! - `DISTINCT` is refused (SQLite: "DISTINCT is not supported for window
//!   functions"), FILTER only on aggregates.
//!
//! A call binds to [`Expr::Win`] and its window is collected in
//! [`Binder::wins`]; `select` groups calls by window into
//! [`super::Node::Window`] stages.

use sqlparser::ast;

use super::bind::{Binder, Scope};
use super::{Exclude, Frame, FrameBound, FrameUnits, SortKey, WinCall, WinFunc};
use crate::exec::vals::{self, Collation};
use crate::expr::Expr;
use crate::{Error, Result};

/// A bound window function call and its window.
#[derive(Clone, Debug)]
pub struct BoundWin {
    pub partition: Vec<SortKey>,
    pub order: Vec<SortKey>,
    pub call: WinCall,
}

/// The separator the parser puts between a window's name and its EXCLUDE
/// mode (see [`crate::parse`]).
pub const EXCLUDE_MARK: char = '\u{1}';

/// The names of the built-in window functions that are not aggregates.
pub fn is_window_only(name: &str) -> bool {
    builtin(name).is_some()
}

/// Whether a function takes `n` arguments.
type Arity = fn(usize) -> bool;

fn builtin(name: &str) -> Option<(WinFunc, Arity)> {
    Some(match name {
        "row_number" => (WinFunc::RowNumber, |n| n == 0),
        "rank" => (WinFunc::Rank, |n| n == 0),
        "dense_rank" => (WinFunc::DenseRank, |n| n == 0),
        "percent_rank" => (WinFunc::PercentRank, |n| n == 0),
        "cume_dist" => (WinFunc::CumeDist, |n| n == 0),
        "ntile" => (WinFunc::Ntile, |n| n == 1),
        "lag" => (WinFunc::Lag, |n| (1..=3).contains(&n)),
        "lead" => (WinFunc::Lead, |n| (1..=3).contains(&n)),
        "first_value" => (WinFunc::FirstValue, |n| n == 1),
        "last_value" => (WinFunc::LastValue, |n| n == 1),
        "nth_value" => (WinFunc::NthValue, |n| n == 2),
        _ => return None,
    })
}

/// A window's parts before binding: PARTITION BY, ORDER BY, frame.
struct Parts<'s> {
    partition: &'s [ast::Expr],
    order: &'s [ast::OrderByExpr],
    frame: Option<&'s ast::WindowFrame>,
    /// `None`: no EXCLUDE clause.
    exclude: Option<Exclude>,
}

/// Splits a parsed window name into the name and its EXCLUDE mode.
fn split_name(n: &str) -> Result<(Option<&str>, Option<Exclude>)> {
    let Some((name, mode)) = n.split_once(EXCLUDE_MARK) else { return Ok((Some(n), None)) };
    let ex = match mode {
        "no others" => Exclude::NoOthers,
        "current row" => Exclude::CurrentRow,
        "group" => Exclude::Group,
        "ties" => Exclude::Ties,
        _ => return Err(Error::Internal(format!("exclude mode {mode}"))),
    };
    Ok(((!name.is_empty()).then_some(name), Some(ex)))
}

/// The window of an OVER clause, named windows (`defs`) resolved.
fn window_parts<'s>(
    over: &'s ast::WindowType,
    defs: &'s [ast::NamedWindowDefinition],
) -> Result<Parts<'s>> {
    match over {
        ast::WindowType::NamedWindow(id) => {
            let (name, exclude) = split_name(&id.value)?;
            let mut p = named_window(name.unwrap_or_default(), defs, 0)?;
            if exclude.is_some() {
                p.exclude = exclude;
            }
            Ok(p)
        }
        ast::WindowType::WindowSpec(spec) => spec_parts(spec, defs, 0),
    }
}

fn spec_parts<'s>(
    spec: &'s ast::WindowSpec,
    defs: &'s [ast::NamedWindowDefinition],
    depth: usize,
) -> Result<Parts<'s>> {
    let (base, exclude) = match &spec.window_name {
        Some(id) => split_name(&id.value)?,
        None => (None, None),
    };
    let own = Parts {
        partition: &spec.partition_by,
        order: &spec.order_by,
        frame: spec.window_frame.as_ref(),
        exclude,
    };
    let Some(base) = base else { return Ok(own) };
    let b = named_window(base, defs, depth + 1)?;
    let err = if !own.partition.is_empty() {
        Some("PARTITION clause")
    } else if !b.order.is_empty() && !own.order.is_empty() {
        Some("ORDER BY clause")
    } else if b.frame.is_some() || b.exclude.is_some() {
        Some("frame specification")
    } else {
        None
    };
    if let Some(what) = err {
        return Err(Error::InvalidInput(format!("cannot override {what} of window: {base}")));
    }
    Ok(Parts {
        partition: b.partition,
        order: if b.order.is_empty() { own.order } else { b.order },
        frame: own.frame,
        exclude: own.exclude,
    })
}

/// The named window `name` of `defs` (`depth` bounds chains of names).
fn named_window<'s>(
    name: &str,
    defs: &'s [ast::NamedWindowDefinition],
    depth: usize,
) -> Result<Parts<'s>> {
    let def = defs
        .iter()
        .find(|d| d.0.value.eq_ignore_ascii_case(name))
        .filter(|_| depth <= defs.len())
        .ok_or_else(|| Error::InvalidInput(format!("no such window: {name}")))?;
    match &def.1 {
        ast::NamedWindowExpr::NamedWindow(other) => named_window(&other.value, defs, depth + 1),
        ast::NamedWindowExpr::WindowSpec(spec) => spec_parts(spec, defs, depth),
    }
}

impl Binder<'_> {
    /// Binds `name(args) [FILTER …] OVER over`.
    pub(super) fn window_call(
        &mut self,
        name: &str,
        f: &ast::Function,
        over: &ast::WindowType,
    ) -> Result<Expr> {
        let Some(mut wins) = self.wins.take() else {
            return Err(Error::InvalidInput(format!("misuse of window function {name}()")));
        };
        // Window calls inside this one's arguments or window are misuse.
        self.in_window += 1;
        let r = self.window_call_in(name, f, over);
        self.in_window -= 1;
        let r = r.map(|bw| {
            wins.push(bw);
            Expr::Win(wins.len() - 1)
        });
        self.wins = Some(wins);
        r
    }

    fn window_call_in(
        &mut self,
        name: &str,
        f: &ast::Function,
        over: &ast::WindowType,
    ) -> Result<BoundWin> {
        let (distinct, args) = match &f.args {
            ast::FunctionArguments::None => (false, Vec::new()),
            ast::FunctionArguments::List(l) => (
                matches!(l.duplicate_treatment, Some(ast::DuplicateTreatment::Distinct)),
                l.args.clone(),
            ),
            ast::FunctionArguments::Subquery(_) => {
                return Err(Error::Unsupported(format!("function {name} over a subquery")));
            }
        };
        if distinct {
            return Err(Error::InvalidInput(
                "DISTINCT is not supported for window functions".into(),
            ));
        }
        let star = args.len() == 1
            && matches!(&args[0], ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Wildcard));
        let asts: Vec<ast::Expr> = if star {
            Vec::new()
        } else {
            args.iter()
                .map(|a| match a {
                    ast::FunctionArg::Unnamed(ast::FunctionArgExpr::Expr(e)) => Ok(e.clone()),
                    _ => Err(Error::InvalidInput(format!("bad argument to {name}()"))),
                })
                .collect::<Result<_>>()?
        };
        let func = match builtin(name) {
            Some((func, arity)) => {
                if star || !arity(asts.len()) {
                    return Err(Error::InvalidInput(format!(
                        "wrong number of arguments to function {name}()"
                    )));
                }
                if f.filter.is_some() {
                    return Err(Error::InvalidInput(
                        "FILTER clause may only be used with aggregate window functions".into(),
                    ));
                }
                func
            }
            None if vals::is_aggregate(name) => {
                if star && name != "count" {
                    return Err(Error::InvalidInput(format!(
                        "wrong number of arguments to function {name}()"
                    )));
                }
                if matches!(name, "min" | "max") && asts.len() != 1 {
                    return Err(Error::InvalidInput(format!(
                        "{name}() may not be used as a window function"
                    )));
                }
                vals::Aggregate::new(name, false, asts.len())?;
                WinFunc::Agg(name.to_string())
            }
            None => {
                return Err(match crate::func::Func::resolve(name, asts.len()) {
                    Ok(_) => Error::InvalidInput(format!(
                        "{name}() may not be used as a window function"
                    )),
                    Err(e) => e,
                });
            }
        };
        let defs = self.windows.clone();
        let parts = window_parts(over, &defs)?;
        let mut bound = Vec::with_capacity(asts.len());
        for a in &asts {
            bound.push(self.bind_expr(a)?);
        }
        let filter = f.filter.as_deref().map(|e| self.bind_expr(e)).transpose()?;
        let partition = parts
            .partition
            .iter()
            .map(|e| {
                let x = self.bind_expr(e)?;
                let coll = self.collation(&x).unwrap_or(Collation::Binary);
                Ok(SortKey { expr: x, desc: false, coll, nulls_first: true })
            })
            .collect::<Result<Vec<_>>>()?;
        let order = parts
            .order
            .iter()
            .map(|o| {
                let x = self.bind_expr(&o.expr)?;
                let coll = self.collation(&x).unwrap_or(Collation::Binary);
                let desc = matches!(o.options.sort, Some(ast::OrderBySort::Desc));
                let nulls_first = o.options.nulls_first.unwrap_or(!desc);
                Ok(SortKey { expr: x, desc, coll, nulls_first })
            })
            .collect::<Result<Vec<_>>>()?;
        let frame = self.frame(parts.frame, parts.exclude, order.len())?;
        let coll = bound.first().and_then(|a| self.collation(a)).unwrap_or(Collation::Binary);
        Ok(BoundWin { partition, order, call: WinCall { func, args: bound, filter, frame, coll } })
    }

    /// A frame as SQLite checks it; `None` is the default frame (RANGE
    /// BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW).
    fn frame(
        &mut self,
        f: Option<&ast::WindowFrame>,
        exclude: Option<Exclude>,
        norder: usize,
    ) -> Result<Frame> {
        let Some(f) = f else {
            if exclude.is_some() {
                // SQLite's grammar has EXCLUDE only after a frame.
                return Err(Error::Parse("near \"EXCLUDE\": syntax error".into()));
            }
            return Ok(Frame {
                units: FrameUnits::Range,
                start: FrameBound::UnboundedPreceding,
                end: FrameBound::CurrentRow,
                exclude: Exclude::NoOthers,
                exclude_clause: false,
            });
        };
        let units = match f.units {
            ast::WindowFrameUnits::Rows => FrameUnits::Rows,
            ast::WindowFrameUnits::Range => FrameUnits::Range,
            ast::WindowFrameUnits::Groups => FrameUnits::Groups,
        };
        let start = self.bound(&f.start_bound)?;
        let end = match &f.end_bound {
            Some(b) => self.bound(b)?,
            None => FrameBound::CurrentRow,
        };
        if matches!(start, FrameBound::UnboundedFollowing) {
            return Err(Error::Parse("near \"FOLLOWING\": syntax error".into()));
        }
        if matches!(end, FrameBound::UnboundedPreceding) {
            return Err(Error::Parse("near \"PRECEDING\": syntax error".into()));
        }
        let rank = |b: &FrameBound| match b {
            FrameBound::UnboundedPreceding => 0,
            FrameBound::Preceding(_) => 1,
            FrameBound::CurrentRow => 2,
            FrameBound::Following(_) => 3,
            FrameBound::UnboundedFollowing => 4,
        };
        let (rs, re) = (rank(&start), rank(&end));
        if (rs == 2 && re == 1) || (rs == 3 && (re == 1 || re == 2)) {
            return Err(Error::InvalidInput("unsupported frame specification".into()));
        }
        let offset =
            |b: &FrameBound| matches!(b, FrameBound::Preceding(_) | FrameBound::Following(_));
        if units == FrameUnits::Range && (offset(&start) || offset(&end)) && norder != 1 {
            return Err(Error::InvalidInput(
                "RANGE with offset PRECEDING/FOLLOWING requires one ORDER BY expression".into(),
            ));
        }
        Ok(Frame {
            units,
            start,
            end,
            exclude: exclude.unwrap_or(Exclude::NoOthers),
            exclude_clause: exclude.is_some(),
        })
    }

    fn bound(&mut self, b: &ast::WindowFrameBound) -> Result<FrameBound> {
        let mut offset = |e: &ast::Expr| -> Result<Expr> {
            // `sqlparser` reads a string offset (`'1' PRECEDING`) as an
            // INTERVAL; to SQLite it is the string.
            let e = match e {
                ast::Expr::Interval(i)
                    if i.leading_field.is_none()
                        && i.last_field.is_none()
                        && i.leading_precision.is_none()
                        && i.fractional_seconds_precision.is_none() =>
                {
                    &i.value
                }
                e => e,
            };
            // A frame offset is a constant expression: no columns.
            self.push_scope(Scope::default());
            let r = self.bind_expr(e);
            self.pop_scope();
            r
        };
        Ok(match b {
            ast::WindowFrameBound::CurrentRow => FrameBound::CurrentRow,
            ast::WindowFrameBound::Preceding(None) => FrameBound::UnboundedPreceding,
            ast::WindowFrameBound::Preceding(Some(e)) => FrameBound::Preceding(offset(e)?),
            ast::WindowFrameBound::Following(None) => FrameBound::UnboundedFollowing,
            ast::WindowFrameBound::Following(Some(e)) => FrameBound::Following(offset(e)?),
        })
    }
}
