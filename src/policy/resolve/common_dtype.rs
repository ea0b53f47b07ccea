//! `sequence = "common_dtype"`: NumPy's `PyArray_PromoteDTypeSequence`
//! (numpy/_core/src/multiarray/common_dtype.c) at the level of DType classes, as
//! `np.result_type` runs it when it is handed dtypes and Python scalars — the tensors' dtypes
//! first, then the scalars' abstract DTypes (`abstractdtypes.c`), each in call order (recorded:
//! `tf.experimental.numpy.result_type`, tests/fixtures/resolve-forms/tf.txt.gz).
//!
//! Each DType knows some others (`__common_dtype__`, one direction, "not implemented"
//! otherwise): a NumPy dtype those of a smaller type number, by the policy's table; a dtype
//! NumPy does not have (ml_dtypes' bfloat16, a legacy user dtype) every NumPy dtype it promotes
//! with by the table, never a Python scalar; a Python int a bool (the default int) and a user
//! dtype (through uint8, int8, then the default int); a Python float bools and ints (the default
//! float), a Python int, a user dtype (through float16, then the default float); a Python
//! complex likewise. The sequence finds the "most knowledgeable" DType by halving, then that
//! one must know every other: a user dtype meeting a dtype it does not promote with fails even
//! where a pairwise fold would go through another dtype.

use crate::dtype::{DType, Kind};
use crate::error::PromoteError;
use crate::op::Call;
use crate::operand::{LiteralKind, Operand, OperandClass};
use crate::plan::Step;

use super::super::RulePolicy;
use super::{Input, Trace};

/// A DType class: a concrete dtype, or a Python scalar's abstract DType.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Class {
    Dtype(DType),
    PyInt,
    PyFloat,
    PyComplex,
}

/// NumPy's type number of its own dtypes (`NPY_TYPES`); any other dtype is a user dtype,
/// registered after them.
fn type_number(d: DType) -> u16 {
    const NUMPY: [DType; 14] = [
        DType::Bool,
        DType::Int8,
        DType::UInt8,
        DType::Int16,
        DType::UInt16,
        DType::Int32,
        DType::UInt32,
        DType::Int64,
        DType::UInt64,
        DType::Float32,
        DType::Float64,
        DType::Complex64,
        DType::Complex128,
        DType::Float16, // NPY_HALF (23) comes after the complex types
    ];
    match NUMPY.iter().position(|n| *n == d) {
        Some(i) => i as u16,
        None => 256 + d.index() as u16,
    }
}

fn is_user(d: DType) -> bool {
    type_number(d) >= 256
}

impl RulePolicy {
    /// The default dtype of a Python scalar's kind: the policy's literal node for it.
    fn scalar_default(&self, kind: LiteralKind) -> Option<DType> {
        self.literal_nodes(kind).next().map(|n| n.dtype)
    }

    /// `a.__common_dtype__(b)`; `None`: not implemented.
    fn common_class(&self, a: Class, b: Class) -> Option<Class> {
        let dflt = |k| self.scalar_default(k).map(Class::Dtype);
        match (a, b) {
            (Class::Dtype(x), Class::Dtype(y)) => {
                if x != y && type_number(y) > type_number(x) {
                    return None; // the larger type number handles the pair
                }
                self.promote_types(x, y).map(Class::Dtype)
            }
            (Class::Dtype(x), s) if !is_user(x) => match (s, x.kind()) {
                (Class::PyComplex, Kind::Complex) => Some(a),
                (Class::PyComplex, Kind::Float) => {
                    self.promote_types(x, DType::Complex64).map(Class::Dtype)
                }
                (Class::PyFloat, Kind::Float | Kind::Complex) => Some(a),
                (Class::PyInt, k) if k != Kind::Bool => Some(a),
                _ => None,
            },
            (Class::Dtype(_), _) => None,
            (s, Class::Dtype(y)) if is_user(y) => {
                let (tries, kind) = match s {
                    Class::PyInt => (&[DType::UInt8, DType::Int8][..], LiteralKind::Int),
                    Class::PyFloat => (&[DType::Float16][..], LiteralKind::Float),
                    _ => (&[DType::Complex64][..], LiteralKind::Complex),
                };
                let last = self.scalar_default(kind);
                tries
                    .iter()
                    .copied()
                    .chain(last)
                    .find_map(|t| self.common_class(b, Class::Dtype(t)))
            }
            (s, Class::Dtype(y)) => match (s, y.kind()) {
                (Class::PyInt, Kind::Bool) => dflt(LiteralKind::Int),
                (Class::PyFloat, Kind::Bool | Kind::Signed | Kind::Unsigned) => {
                    dflt(LiteralKind::Float)
                }
                (Class::PyComplex, Kind::Bool | Kind::Signed | Kind::Unsigned) => {
                    dflt(LiteralKind::Complex)
                }
                _ => None,
            },
            (Class::PyFloat, Class::PyInt) => Some(a),
            (Class::PyComplex, Class::PyInt | Class::PyFloat) => Some(a),
            _ => None,
        }
    }

    /// `PyArray_CommonDType`: a DType with itself, else either direction.
    fn common_either(&self, a: Class, b: Class) -> Option<Class> {
        if a == b {
            return Some(a);
        }
        self.common_class(a, b).or_else(|| self.common_class(b, a))
    }

    /// `reduce_dtypes_to_most_knowledgeable`: pairs from both ends, the more knowledgeable of
    /// each moved to the front, halving until two are left; `None` in the result: not
    /// implemented.
    fn most_knowledgeable(&self, ds: &mut [Option<Class>]) -> Option<Class> {
        let len = ds.len();
        let half = len / 2;
        let mut res = None;
        for low in 0..half {
            let high = len - 1 - low;
            res = match (ds[low], ds[high]) {
                (Some(l), Some(h)) if l == h => Some(l),
                (Some(l), Some(h)) => self.common_class(l, h),
                (l, _) => l,
            };
            match res {
                None => ds.swap(low, high),
                Some(r) if Some(r) == ds[low] => ds[high] = None,
                Some(_) => {}
            }
        }
        if len == 2 {
            return res;
        }
        self.most_knowledgeable(&mut ds[..len - half])
    }

    /// The sequence's common DType (`None`: no common DType exists).
    fn promote_sequence(&self, classes: &[Class]) -> Option<Class> {
        if let [one] = classes {
            return Some(*one);
        }
        let mut ds: Vec<Option<Class>> = classes.iter().copied().map(Some).collect();
        let mut result = self.most_knowledgeable(&mut ds);
        let main = ds[0]?;
        let start = if result.is_none() { 1 } else { 2 };
        for d in ds.iter().skip(start).flatten() {
            let promotion = self.common_class(main, *d)?;
            result = Some(match result {
                None => promotion,
                Some(r) => self.common_either(r, promotion)?,
            });
        }
        result
    }

    /// The promoted dtype of a call under `sequence = "common_dtype"` (see the module).
    pub(crate) fn common_dtype_sequence(
        &self,
        call: &Call,
        ins: &[Input],
        steps: &mut Trace,
    ) -> Result<DType, PromoteError> {
        let class = |i: &Input| match i.operand {
            Operand::Literal(l) => match l.kind() {
                LiteralKind::Bool => Class::Dtype(DType::Bool),
                LiteralKind::Int => Class::PyInt,
                LiteralKind::Float => Class::PyFloat,
                LiteralKind::Complex => Class::PyComplex,
            },
            _ => Class::Dtype(i.dtype),
        };
        let is_literal = |i: &&Input| i.class == OperandClass::Literal;
        let classes: Vec<Class> = (ins.iter().filter(|i| !is_literal(i)))
            .chain(ins.iter().filter(is_literal))
            .map(class)
            .collect();
        let found = self.promote_sequence(&classes).and_then(|c| match c {
            Class::Dtype(d) => Some(d),
            Class::PyInt => self.scalar_default(LiteralKind::Int),
            Class::PyFloat => self.scalar_default(LiteralKind::Float),
            Class::PyComplex => self.scalar_default(LiteralKind::Complex),
        });
        let Some(d) = found else {
            let names: Vec<String> = ins.iter().map(|i| i.operand.to_string()).collect();
            return Err(self.no_promotion(
                call,
                &names[0],
                names.last().map_or("", |s| s.as_str()),
                format!(
                    "no common DType exists for {} (NumPy's PyArray_PromoteDTypeSequence: the most knowledgeable DType does not know every other)",
                    names.join(", ")
                ),
            ));
        };
        steps.note(|| {
            Step::Category(format!(
                "the DTypes in sequence (tensors first, then Python scalars), each promoted with the most knowledgeable one: {d} (NumPy's PyArray_PromoteDTypeSequence)"
            ))
        });
        Ok(self.canonical(d))
    }
}
