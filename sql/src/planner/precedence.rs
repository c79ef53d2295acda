//! SQLite's grouping of `||`, `->` and `->>`, which `sqlparser` gets
//! wrong: in SQLite these three bind tighter than `*`, which binds tighter
//! than `+`, then `&`, `|`, `<<`, `>>` (all left-associative); `sqlparser`
//! puts `||` level with `*` and `->`/`->>` below `+`. So `1 + j -> 'a'`
//! would read `(1 + j) -> 'a'` and `2 * 3 || 4` would read `(2 * 3) || 4`.
//!
//! [`regroup`] repairs a chain of these operators: an in-order walk of
//! the parsed tree gives the operands and operators back in the order they
//! were written (parentheses are `Nested` nodes, kept whole), and the
//! chain is rebuilt with SQLite's precedences. Chains without `||`, `->`
//! or `->>` are already right and are left alone.

use sqlparser::ast::{BinaryOperator as B, Expr};

/// SQLite's binding strength of the operators a chain can hold.
fn level(op: &B) -> Option<u8> {
    Some(match op {
        B::StringConcat | B::Arrow | B::LongArrow => 4,
        B::Multiply | B::Divide | B::Modulo => 3,
        B::Plus | B::Minus => 2,
        B::BitwiseAnd | B::BitwiseOr | B::PGBitwiseShiftLeft | B::PGBitwiseShiftRight => 1,
        _ => return None,
    })
}

/// The chain rooted at `e` regrouped as SQLite groups it, or `None` if it
/// needs no change.
pub fn regroup(e: &Expr) -> Option<Expr> {
    let Expr::BinaryOp { op, .. } = e else { return None };
    level(op)?;
    // In-order walk without recursion: operands and operators as written.
    let mut operands: Vec<&Expr> = Vec::new();
    let mut ops: Vec<&B> = Vec::new();
    let mut stack: Vec<&Expr> = Vec::new();
    let mut cur = Some(e);
    loop {
        while let Some(Expr::BinaryOp { left, op, .. }) = cur
            && level(op).is_some()
        {
            stack.push(cur.expect("some"));
            cur = Some(left);
        }
        if let Some(x) = cur {
            operands.push(x);
        }
        let Some(Expr::BinaryOp { op, right, .. }) = stack.pop() else { break };
        ops.push(op);
        cur = Some(right);
    }
    if !ops.iter().any(|o| matches!(o, B::StringConcat | B::Arrow | B::LongArrow)) {
        return None;
    }
    // Shunting-yard, every level left-associative.
    let mut out: Vec<Expr> = vec![operands[0].clone()];
    let mut pending: Vec<&B> = Vec::new();
    let reduce = |out: &mut Vec<Expr>, op: &B| {
        let right = out.pop().expect("operand");
        let left = out.pop().expect("operand");
        out.push(Expr::BinaryOp { left: Box::new(left), op: op.clone(), right: Box::new(right) });
    };
    for (op, operand) in ops.iter().zip(&operands[1..]) {
        let l = level(op).expect("chain operator");
        while let Some(top) = pending.last()
            && level(top).expect("chain operator") >= l
        {
            let top = pending.pop().expect("some");
            reduce(&mut out, top);
        }
        pending.push(op);
        out.push((*operand).clone());
    }
    while let Some(top) = pending.pop() {
        reduce(&mut out, top);
    }
    let rebuilt = out.pop().expect("one tree");
    (rebuilt != *e).then_some(rebuilt)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expr(sql: &str) -> Expr {
        let d = sqlparser::dialect::SQLiteDialect {};
        sqlparser::parser::Parser::new(&d).try_with_sql(sql).unwrap().parse_expr().unwrap()
    }

    #[test]
    fn arrows_bind_tightest() {
        let r = regroup(&expr("1 + j -> 'a'")).unwrap();
        assert_eq!(r.to_string(), "1 + j -> 'a'");
        assert!(matches!(&r, Expr::BinaryOp { op: B::Plus, .. }));
        let r = regroup(&expr("j -> 'a' + 1")).unwrap();
        assert!(matches!(&r, Expr::BinaryOp { op: B::Plus, left, .. }
            if matches!(left.as_ref(), Expr::BinaryOp { op: B::Arrow, .. })));
        let r = regroup(&expr("y * x -> 'a' + 1")).unwrap();
        assert!(matches!(&r, Expr::BinaryOp { op: B::Plus, left, .. }
            if matches!(left.as_ref(), Expr::BinaryOp { op: B::Multiply, .. })));
        let r = regroup(&expr("2 * 3 || 4")).unwrap();
        assert!(matches!(&r, Expr::BinaryOp { op: B::Multiply, .. }));
        assert!(regroup(&expr("(1 + j) -> 'a'")).is_none());
        assert!(regroup(&expr("1 + 2 * 3")).is_none());
        assert!(regroup(&expr("j -> 'a' -> 'b'")).is_none());
    }
}
