//! Shrinking a failing session: drop statements that do not matter
//! (delta debugging), then replace parts of the rest by the simpler forms
//! the generator recorded, keeping a change whenever the session still
//! fails the same way.

use super::run::{Mismatch, run_session};
use super::sql::Sql;

/// Upper bound on candidate runs, so a shrink always ends quickly.
const BUDGET: usize = 4000;

fn render(stmts: &[Sql]) -> Vec<String> {
    stmts.iter().map(Sql::render).collect()
}

/// The smallest failing session found, as text, and its mismatch.
pub fn shrink(stmts: Vec<Sql>, first: Mismatch) -> (Vec<String>, Mismatch) {
    let class = first.class;
    let mut best: Vec<Sql> = stmts[..=first.at].to_vec();
    let mut found = first;
    let mut runs = 0;
    let fails = |cand: &[Sql], runs: &mut usize| -> Option<Mismatch> {
        *runs += 1;
        run_session(&render(cand)).filter(|m| m.class == class)
    };
    loop {
        let before = (best.len(), best.iter().map(Sql::alts).sum::<usize>());
        // 1. Statements: remove chunks, halving the chunk size.
        let mut chunk = best.len().div_ceil(2);
        while chunk >= 1 && runs < BUDGET {
            let mut i = 0;
            while i + 1 < best.len() && runs < BUDGET {
                let end = (i + chunk).min(best.len() - 1);
                if end <= i {
                    break;
                }
                let mut cand = best[..i].to_vec();
                cand.extend_from_slice(&best[end..]);
                match fails(&cand, &mut runs) {
                    Some(m) => {
                        best = cand[..=m.at].to_vec();
                        found = m;
                    }
                    None => i += chunk,
                }
            }
            chunk /= 2;
        }
        // 2. Simpler forms inside each statement.
        for s in 0..best.len() {
            let mut k = 0;
            while k < best[s].alts() && runs < BUDGET {
                let mut progressed = false;
                for c in 1..=best[s].choices(k) {
                    let mut cand = best.clone();
                    cand[s] = best[s].replaced(k, c);
                    if let Some(m) = fails(&cand, &mut runs) {
                        best = cand[..=m.at.max(s.min(cand.len() - 1))].to_vec();
                        found = m;
                        progressed = true;
                        break;
                    }
                }
                if s >= best.len() {
                    break;
                }
                if !progressed {
                    k += 1;
                }
            }
            if s + 1 >= best.len() {
                break;
            }
        }
        let after = (best.len(), best.iter().map(Sql::alts).sum::<usize>());
        if after == before || runs >= BUDGET {
            break;
        }
    }
    let text = render(&best[..=found.at.min(best.len() - 1)]);
    (text, found)
}
