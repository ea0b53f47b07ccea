//! Unary ops on 8- and 16-bit operands run by table lookup once an array is long enough
//! (`src/kernel/ops/lookup.rs`). The lookup must give the bits the element-by-element path
//! gives: for every policy with its own element semantics, every unary op it has and every
//! operand dtype of at most 16 bits, a long array holding every bit pattern (in a scrambled
//! order, four times over) is computed whole (the lookup) and in pieces too short for the table
//! (the direct path), and the two are compared bit for bit.

use promote::kernel::{execute, Array, Element, Semantics, View};
use promote::{builtin, Call, DType, Op, Operand, Policy};

/// Every value of a dtype of at most 16 bits, each four times and scrambled, as an array.
fn all_patterns(d: DType) -> Array {
    let count: usize = match d {
        DType::Bool => 2,
        DType::Int8 | DType::UInt8 => 256,
        _ => 65_536,
    };
    // a fixed odd multiplier visits every index of the power-of-two range once per lap
    let idx: Vec<usize> = (0..4 * count).map(|i| (i * 40_503 + 17) % count).collect();
    match d {
        DType::Bool => Array::from(idx.iter().map(|&i| i == 1).collect::<Vec<bool>>()),
        DType::UInt8 => Array::from(idx.iter().map(|&i| i as u8).collect::<Vec<u8>>()),
        DType::Int8 => Array::from(idx.iter().map(|&i| i as u8 as i8).collect::<Vec<i8>>()),
        DType::UInt16 => Array::from(idx.iter().map(|&i| i as u16).collect::<Vec<u16>>()),
        DType::Int16 => Array::from(idx.iter().map(|&i| i as u16 as i16).collect::<Vec<i16>>()),
        DType::Float16 => Array::from(
            idx.iter()
                .map(|&i| half::f16::from_bits(i as u16))
                .collect::<Vec<_>>(),
        ),
        DType::BFloat16 => Array::from(
            idx.iter()
                .map(|&i| half::bf16::from_bits(i as u16))
                .collect::<Vec<_>>(),
        ),
        _ => unreachable!("only dtypes of at most 16 bits"),
    }
}

/// The op computed in pieces shorter than any table threshold, concatenated. The pieces halve
/// the whole array (a quarter for bool), so an op whose element function depends on the array's
/// length and an element's place in it gives each element the same function whole and in pieces
/// (JAX's `arctan`: the C library's for all but the last `n mod 4` of 50 elements or more, XLA's
/// own for 2 to 49; `OpSemantics::xla_libm_lanes`).
fn in_pieces(plan: &promote::Plan, x: View<'_>, sem: &Semantics) -> Option<Vec<Array>> {
    let piece = match x.dtype() {
        DType::Bool => 4,
        DType::Int8 | DType::UInt8 => 512,
        _ => 65_536,
    };
    (0..x.len())
        .step_by(piece)
        .map(|s| execute(plan, &[x.slice(s, (s + piece).min(x.len()))], sem).ok())
        .collect()
}

fn same(whole: &Array, pieces: &[Array]) -> bool {
    let mut at = 0;
    pieces.iter().all(|p| {
        let part = whole.view().slice(at, at + p.len()).to_array();
        at += p.len();
        part == *p && same_bits_nan_too(&part, p)
    })
}

/// `Array`'s equality lets any NaN equal any NaN; the lookup must keep payloads too.
fn same_bits_nan_too(a: &Array, b: &Array) -> bool {
    fn bits<T: Element>(a: &Array) -> Vec<u8> {
        let s = T::slice(a.view()).unwrap();
        let bytes = unsafe {
            std::slice::from_raw_parts(s.as_ptr() as *const u8, std::mem::size_of_val(s))
        };
        bytes.to_vec()
    }
    match (a, b) {
        (Array::Float16(_), _) => bits::<half::f16>(a) == bits::<half::f16>(b),
        (Array::BFloat16(_), _) => bits::<half::bf16>(a) == bits::<half::bf16>(b),
        (Array::Float32(_), _) => bits::<f32>(a) == bits::<f32>(b),
        (Array::Float64(_), _) => bits::<f64>(a) == bits::<f64>(b),
        _ => true,
    }
}

#[test]
fn the_lookup_gives_the_direct_bits_for_every_unary_op() {
    let narrow = [
        DType::Bool,
        DType::UInt8,
        DType::Int8,
        DType::UInt16,
        DType::Int16,
        DType::Float16,
        DType::BFloat16,
    ];
    let unary: Vec<&str> = promote::kernel::ops::unary::NAMES
        .iter()
        .map(|(n, _)| *n)
        .collect();
    let mut checked = 0;
    for name in ["numpy", "torch", "jax-x64", "tf-all", "paddle"] {
        let policy = builtin(name).unwrap();
        let sem = policy.semantics();
        for op in &unary {
            let Ok(op) = Op::parse(op) else { continue };
            for &d in &narrow {
                let Ok(call) = Call::new(op, vec![Operand::tensor(d)], None) else {
                    continue;
                };
                let Ok(plan) = policy.resolve(&call) else {
                    continue;
                };
                let x = all_patterns(d);
                let whole = execute(&plan, &[x.view()], &sem);
                let pieces = in_pieces(&plan, x.view(), &sem);
                match (whole, pieces) {
                    (Ok(w), Some(p)) => assert!(
                        same(&w, &p),
                        "{name} {op:?} {d}: the lookup differs from the direct path"
                    ),
                    // a refused value in some piece: the whole array is refused too
                    (Err(_), None) => {}
                    (w, p) => panic!(
                        "{name} {op:?} {d}: whole {:?} but pieces {}",
                        w.err(),
                        if p.is_some() { "computed" } else { "refused" }
                    ),
                }
                checked += 1;
            }
        }
    }
    assert!(
        checked > 500,
        "only {checked} op × dtype cells were checked"
    );
}
