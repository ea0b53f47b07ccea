//! Unary ops on 8- and 16-bit operands as a table lookup.
//!
//! An operand of `bool`, `int8`, `uint8`, `int16`, `uint16`, `float16` or `bfloat16` has at
//! most 65,536 distinct bit patterns. For a long enough array the op is run once over every
//! pattern, through the very path it would take element by element (the same casts, element
//! function and rounding), and each element of the array is then looked up in that table by
//! its bits. The values are the same by construction; only the work differs: `exp` of float16
//! is a libm call per pattern instead of per element, then a gather at memory speed.
//!
//! A unary op is a function of its element alone, so the table is exact; should the op refuse
//! some pattern (a value error), the table is not used and the array runs the direct path,
//! which reports what the data really holds.
//!
//! Where a gather is slower than computing (`exp` of float16: NumPy's AVX-512 `exp` beats a
//! gather from a 128 KB table), a SIMD loop computes the op: [`arch::exp_f16_svml`], SVML's
//! float32 `exp` in the same operations as the scalar port that fills NumPy's table, or else
//! [`arch::exp_f16`], float32 arithmetic rounded once to float16 with the table's value on the
//! lanes whose rounding is in doubt. A loop runs only once it has given the table's value on
//! every one of the 65,536 patterns (checked once per table and SIMD path): the bits stay the
//! table's, by construction.
//!
//! A table is kept for the next call with the same [`TableKey`] (the op, the operand's dtype,
//! the plan's casts and the semantics: all that decides an element's value), so a program that
//! calls `exp` on float16 arrays again and again builds the table once. At most
//! [`KEPT_TABLES`] tables (each at most 1 MiB: 65,536 complex128 values) are kept; the oldest
//! goes first.
//!
//! ```
//! use promote::kernel::{execute, Array, Semantics};
//! use promote::{builtin, Call, DType, Op, Operand, Policy};
//! let numpy = builtin("numpy").unwrap();
//! let call = Call::new(Op::parse("exp").unwrap(), vec![Operand::tensor(DType::Float16)], None);
//! let plan = numpy.resolve(&call.unwrap()).unwrap();
//! let x: Vec<half::f16> = (0..300_000).map(|i| half::f16::from_f32((i % 50) as f32 / 10.0)).collect();
//! let y = execute(&plan, &[Array::from(x.clone()).view()], &Semantics::NUMPY).unwrap();
//! let Array::Float16(y) = y else { unreachable!() };
//! assert_eq!(y[7], half::f16::from_f32(x[7].to_f32().exp())); // exp(0.7) rounded once to f16
//! ```

use std::sync::{Arc, Mutex, OnceLock};

use half::{bf16, f16};
use rayon::prelude::*;

use half::slice::HalfFloatSliceExt;

use crate::kernel::arch::{self, Path};
use crate::kernel::array::{Array, Element, View, ViewMut};
use crate::kernel::compute::{KernelError, Semantics};
use crate::kernel::exec;
use crate::plan::Plan;
use crate::{with_dtype, DType, Op};

/// What decides the values of a unary op's table: two calls with equal keys build equal tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TableKey {
    op: Op,
    operand: DType,
    input: DType,
    compute: DType,
    result: DType,
    out: DType,
    semantics: Semantics,
}

impl TableKey {
    /// The key of a unary plan run on an operand of dtype `operand` into an output of `out`.
    pub(crate) fn new(plan: &Plan, operand: DType, out: DType, semantics: &Semantics) -> Self {
        TableKey {
            op: plan.op,
            operand,
            input: plan.inputs.first().copied().unwrap_or(operand),
            compute: plan.compute,
            result: plan.result,
            out,
            semantics: *semantics,
        }
    }
}

/// How many tables are kept between calls.
pub(crate) const KEPT_TABLES: usize = 32;

/// A table: the op's value for every pattern, and, per SIMD path, which of the op's
/// [`Computed`] loops (if any) computes those very values itself.
pub(crate) struct Table {
    values: Array,
    computed: [OnceLock<Option<Computed>>; Path::ALL.len()],
}

/// A kept table, or `None` where the op refused a pattern (the direct path then runs).
type Kept = Option<Arc<Table>>;

/// A loop that computes an op on float16 bits in SIMD registers, taking the table's value
/// where its own rounding is in doubt; `false` when the current path has none
/// ([`arch::exp_f16`]).
type Computed = fn(&[u16], &[u16], &mut [u16], bool) -> bool;

/// The computed loops of an op, cheapest first: `exp` from float16 to float16 has SVML's own
/// (the table of NumPy's float16 `exp`) and one for any correctly rounded-ish `exp`.
fn computed(key: &TableKey) -> &'static [Computed] {
    let f16_to_f16 = key.operand == DType::Float16 && key.out == DType::Float16;
    if f16_to_f16 && key.op.name() == "exp" {
        &[arch::exp_f16_svml, arch::exp_f16]
    } else {
        &[]
    }
}

impl Table {
    /// Whether `f` gives this table's values on every pattern on the current path.
    fn agrees(&self, f: Computed) -> bool {
        let Array::Float16(t) = &self.values else {
            return false;
        };
        let t = t.reinterpret_cast();
        let all: Vec<u16> = (0..=u16::MAX).collect();
        let mut got = vec![0u16; all.len()];
        f(&all, t, &mut got, false) && got == t
    }

    /// The first of `loops` that gives this table's values on every pattern on the current
    /// path (found once per path and kept): then the array is computed instead of looked up,
    /// with the same bits.
    fn computing(&self, loops: &[Computed]) -> Option<Computed> {
        let path = arch::current();
        let slot = &self.computed[Path::ALL.iter().position(|&p| p == path).unwrap_or(0)];
        *slot.get_or_init(|| loops.iter().copied().find(|&f| self.agrees(f)))
    }
}

/// The kept tables, newest last.
static TABLES: Mutex<Vec<(TableKey, Kept)>> = Mutex::new(Vec::new());

fn kept(key: &TableKey) -> Option<Kept> {
    let tables = TABLES.lock().ok()?;
    tables
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, t)| t.clone())
}

fn keep(key: TableKey, table: Kept) {
    if let Ok(mut tables) = TABLES.lock() {
        if tables.len() >= KEPT_TABLES {
            tables.remove(0);
        }
        tables.push((key, table));
    }
}

/// An operand type whose every value is one of at most 65,536 bit patterns, each named by an
/// index into the table.
trait Pattern: Element {
    /// How many patterns (the table's length).
    const COUNT: usize;
    /// Every value of the type, in index order.
    fn all() -> Vec<Self>;
    /// The index of this value's bit pattern, always below [`Pattern::COUNT`] (the gather
    /// relies on it).
    fn index(self) -> usize;
}

macro_rules! pattern {
    ($($t:ty, $bits:ty, |$b:ident| $from:expr, |$v:ident| $to:expr);* $(;)?) => {$(
        impl Pattern for $t {
            const COUNT: usize = <$bits>::MAX as usize + 1;
            fn all() -> Vec<Self> {
                (0..=<$bits>::MAX).map(|$b: $bits| $from).collect()
            }
            #[inline(always)]
            fn index(self) -> usize {
                let $v = self;
                $to as usize
            }
        }
    )*};
}

pattern!(
    u8, u8, |b| b, |v| v;
    i8, u8, |b| b as i8, |v| v as u8;
    u16, u16, |b| b, |v| v;
    i16, u16, |b| b as i16, |v| v as u16;
    f16, u16, |b| f16::from_bits(b), |v| v.to_bits();
    bf16, u16, |b| bf16::from_bits(b), |v| v.to_bits();
);

impl Pattern for bool {
    const COUNT: usize = 2;
    fn all() -> Vec<Self> {
        vec![false, true]
    }
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
}

/// How many elements per table entry an array must have before the table pays: building it
/// runs the op once per pattern, so four elements per pattern bound that cost by a quarter of
/// the direct path's.
const ELEMENTS_PER_ENTRY: usize = 4;

/// Elements per parallel piece of the gather.
const PIECE: usize = 1 << 16;

/// Run a unary op by table lookup when the operand's type is narrow enough and the array long
/// enough; `direct` is the op's element-by-element path, used to fill the table. `None` when the
/// lookup does not take the call (the caller then runs `direct` on the array itself).
/// `key` names the table for reuse (`None`: build it for this call only).
pub(crate) fn unary(
    key: Option<TableKey>,
    x: View<'_>,
    out: ViewMut<'_>,
    direct: impl Fn(View<'_>, ViewMut<'_>) -> Result<(), KernelError>,
) -> Option<Result<(), KernelError>> {
    macro_rules! by_operand {
        ($($variant:ident => $t:ty),*) => {
            match x {
                $(View::$variant(s) => lookup::<$t>(key, s, out, &direct),)*
                _ => None,
            }
        };
    }
    by_operand!(Bool => bool, UInt8 => u8, Int8 => i8, UInt16 => u16, Int16 => i16,
                Float16 => f16, BFloat16 => bf16)
}

fn lookup<I: Pattern>(
    key: Option<TableKey>,
    x: &[I],
    out: ViewMut<'_>,
    direct: &impl Fn(View<'_>, ViewMut<'_>) -> Result<(), KernelError>,
) -> Option<Result<(), KernelError>> {
    if x.len() < I::COUNT * ELEMENTS_PER_ENTRY || out.len() != x.len() {
        return None;
    }
    let table = match key.as_ref().and_then(kept) {
        Some(table) => table?,
        None => {
            let table = build::<I>(out.dtype(), direct).map(|values| {
                Arc::new(Table {
                    values,
                    computed: Default::default(),
                })
            });
            if let Some(key) = key {
                keep(key, table.clone());
            }
            table?
        }
    };
    let mut out = out;
    let stream = std::mem::size_of_val(x) + out.len() * out.dtype().itemsize()
        >= exec::tuning().stream_min_bytes;
    if let Some(loops) = key.as_ref().map(computed) {
        if let (View::Float16(x), ViewMut::Float16(o), Array::Float16(t)) =
            (I::view(x), out.reborrow(), &table.values)
        {
            if let Some(f) = table.computing(loops) {
                let t = t.reinterpret_cast();
                o.reinterpret_cast_mut()
                    .par_chunks_mut(PIECE)
                    .zip(x.reinterpret_cast().par_chunks(PIECE))
                    .for_each(|(o, x)| {
                        f(x, t, o, stream);
                        arch::store_fence();
                    });
                return Some(Ok(()));
            }
        }
    }
    with_dtype!(out.dtype(), O => gather::<I, O>(x, &table.values, out, stream));
    Some(Ok(()))
}

/// The op over every pattern of `I`, or `None` when it refuses one (a pattern the op refuses
/// may not be in the data: then the data decides, directly).
fn build<I: Pattern>(
    out: DType,
    direct: &impl Fn(View<'_>, ViewMut<'_>) -> Result<(), KernelError>,
) -> Option<Array> {
    let patterns = I::all();
    let mut table = Array::zeros(out, patterns.len());
    direct(I::view(&patterns), table.view_mut()).ok()?;
    Some(table)
}

/// Elements per staging buffer of a streamed gather (8 KB of float16, in the first-level cache).
const STAGE: usize = 4096;

/// `out[i] = table[x[i].index()]`; with `stream`, gathered into a small buffer, then written with
/// streaming stores (no read-for-ownership of the output's lines).
fn gather<I: Pattern, O: Element>(x: &[I], table: &Array, out: ViewMut<'_>, stream: bool) {
    let table = O::slice(table.view()).expect("the table has the output's dtype");
    // every index() is below COUNT (the Pattern contract, tested below), so the loop needs no
    // bounds check once the table is known to be that long
    assert!(table.len() >= I::COUNT, "a table has an entry per pattern");
    let out = O::slice_mut(out).expect("dtype checked by the caller");
    let look = |o: &mut [O], i: &[I]| {
        for (d, &v) in o.iter_mut().zip(i) {
            // SAFETY: v.index() < I::COUNT <= table.len() (asserted above)
            *d = unsafe { *table.get_unchecked(v.index()) };
        }
    };
    out.par_chunks_mut(PIECE)
        .zip(x.par_chunks(PIECE))
        .for_each(|(o, i)| {
            if !stream {
                return look(o, i);
            }
            let mut buf = vec![table[0]; STAGE.min(o.len())];
            for (o, i) in o.chunks_mut(STAGE).zip(i.chunks(STAGE)) {
                let b = &mut buf[..o.len()];
                look(b, i);
                arch::stream_copy(o, b);
            }
            arch::store_fence();
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn negate_or_refuse(x: View<'_>, out: ViewMut<'_>) -> Result<(), KernelError> {
        let (x, o) = (i8::slice(x).unwrap(), i16::slice_mut(out).unwrap());
        for (d, &v) in o.iter_mut().zip(x) {
            if v == i8::MIN {
                return Err(KernelError::DivisionByZero);
            }
            *d = -(v as i16);
        }
        Ok(())
    }

    #[test]
    fn every_pattern_has_its_own_index() {
        fn each<I: Pattern>() {
            let all = I::all();
            assert_eq!(all.len(), I::COUNT);
            for (i, v) in all.into_iter().enumerate() {
                assert_eq!(v.index(), i, "the gather reads table[index()] unchecked");
            }
        }
        each::<bool>();
        each::<u8>();
        each::<i8>();
        each::<u16>();
        each::<i16>();
        each::<f16>();
        each::<bf16>();
        assert_eq!(i8::all()[255], -1);
    }

    #[test]
    fn a_long_array_is_looked_up_and_a_short_one_is_not() {
        let long: Vec<i8> = (0..2000).map(|i| (i % 100) as i8 - 50).collect();
        let mut got = vec![0i16; long.len()];
        let taken = unary(
            None,
            i8::view(&long),
            i16::view_mut(&mut got),
            |_, _| Ok(()),
        );
        assert!(
            taken.is_some(),
            "2000 int8 elements take the 256-entry table"
        );
        let taken = unary(
            None,
            i8::view(&long[..100]),
            i16::view_mut(&mut got[..100]),
            negate_or_refuse,
        );
        assert!(taken.is_none(), "100 elements do not pay for the table");
    }

    #[test]
    fn a_refused_pattern_leaves_the_data_to_decide() {
        // i8::MIN is refused while filling the table: the lookup steps aside
        let long: Vec<i8> = (0..2000).map(|i| (i % 100) as i8 - 50).collect();
        let mut got = vec![0i16; long.len()];
        assert!(unary(
            None,
            i8::view(&long),
            i16::view_mut(&mut got),
            negate_or_refuse
        )
        .is_none());
    }

    #[test]
    fn the_lookup_gives_the_direct_values() {
        let long: Vec<i8> = (0..5000).map(|i| (i * 7 % 256) as u8 as i8).collect();
        let direct = |x: View<'_>, out: ViewMut<'_>| {
            let (x, o) = (i8::slice(x).unwrap(), f16::slice_mut(out).unwrap());
            for (d, &v) in o.iter_mut().zip(x) {
                *d = f16::from_f32((v as f32).abs().sqrt());
            }
            Ok(())
        };
        let mut want = vec![f16::ZERO; long.len()];
        direct(i8::view(&long), f16::view_mut(&mut want)).unwrap();
        let mut got = vec![f16::ZERO; long.len()];
        unary(None, i8::view(&long), f16::view_mut(&mut got), direct)
            .unwrap()
            .unwrap();
        assert!(got
            .iter()
            .zip(&want)
            .all(|(a, b)| a.to_bits() == b.to_bits()));
    }

    #[test]
    fn exp_of_float16_computed_or_looked_up_gives_the_direct_values_on_every_path() {
        let _path = arch::path_lock();
        use crate::kernel::exec::execute;
        use crate::{builtin, Call, Policy};
        let all: Vec<f16> = (0..=u16::MAX).map(f16::from_bits).collect();
        let long: Vec<f16> = all
            .iter()
            .cycle()
            .take(all.len() * ELEMENTS_PER_ENTRY)
            .copied()
            .collect();
        for (policy, sem) in [("numpy", Semantics::NUMPY), ("torch", Semantics::TORCH)] {
            let call: Call = "exp float16".parse().unwrap();
            let plan = builtin(policy).unwrap().resolve(&call).unwrap();
            // element by element: pieces too short for the table
            let mut want = Vec::new();
            for piece in all.chunks(1000) {
                let y = execute(&plan, &[f16::view(piece)], &sem).unwrap();
                let Array::Float16(y) = y else {
                    panic!("exp float16 is float16")
                };
                want.extend(y.iter().map(|v| v.to_bits()));
            }
            for path in arch::supported() {
                arch::set_path(path).unwrap();
                let got = execute(&plan, &[f16::view(&long)], &sem).unwrap();
                let Array::Float16(got) = got else {
                    panic!("exp float16 is float16")
                };
                for (i, g) in got.iter().enumerate() {
                    assert_eq!(
                        g.to_bits(),
                        want[i % want.len()],
                        "{policy} {path:?} {:#06x}",
                        i % want.len()
                    );
                }
                let key = TableKey::new(&plan, DType::Float16, DType::Float16, &sem);
                let table = kept(&key).flatten().expect("the table was built and kept");
                if path == Path::Avx512 {
                    // NumPy's table is SVML's: its own loop reproduces it; PyTorch's (SLEEF's
                    // exp) is reproduced by the loop that defers the lanes in doubt
                    let (f, name): (Computed, _) = if policy == "numpy" {
                        (arch::exp_f16_svml, "exp_f16_svml")
                    } else {
                        (arch::exp_f16, "exp_f16")
                    };
                    assert!(table.agrees(f), "{policy}: {name} differs from the table");
                    assert!(table.computing(computed(&key)).is_some(), "{policy}");
                }
            }
            arch::set_path(arch::detected()).unwrap();
        }
    }

    fn key(op: &str) -> TableKey {
        TableKey {
            op: Op::parse(op).unwrap(),
            operand: DType::Int8,
            input: DType::Int8,
            compute: DType::Int16,
            result: DType::Int16,
            out: DType::Int16,
            semantics: Semantics::NUMPY,
        }
    }

    #[test]
    fn a_kept_table_is_built_once_and_a_refusal_is_kept_too() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let long: Vec<i8> = (0..2000).map(|i| (i % 100) as i8 - 50).collect();
        let built = AtomicUsize::new(0);
        let counting = |x: View<'_>, o: ViewMut<'_>| {
            built.fetch_add(1, Ordering::Relaxed);
            let (x, o) = (i8::slice(x).unwrap(), i16::slice_mut(o).unwrap());
            o.iter_mut().zip(x).for_each(|(d, &v)| *d = v as i16 * 3);
            Ok(())
        };
        for _ in 0..3 {
            let mut got = vec![0i16; long.len()];
            unary(
                Some(key("square")),
                i8::view(&long),
                i16::view_mut(&mut got),
                counting,
            )
            .unwrap()
            .unwrap();
            assert!(got.iter().zip(&long).all(|(&g, &v)| g == v as i16 * 3));
        }
        assert_eq!(
            built.load(Ordering::Relaxed),
            1,
            "one table for three calls"
        );

        let refused = AtomicUsize::new(0);
        let refusing = |x: View<'_>, o: ViewMut<'_>| {
            refused.fetch_add(1, Ordering::Relaxed);
            negate_or_refuse(x, o)
        };
        for _ in 0..3 {
            let mut got = vec![0i16; long.len()];
            let taken = unary(
                Some(key("negative")),
                i8::view(&long),
                i16::view_mut(&mut got),
                refusing,
            );
            assert!(
                taken.is_none(),
                "a refused pattern leaves the data to decide"
            );
        }
        assert_eq!(refused.load(Ordering::Relaxed), 1, "the refusal is kept");
    }
}
