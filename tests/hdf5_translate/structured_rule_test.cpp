// DescribeCompound, the rule both HDF5 readers apply to compound types: which layouts are zarr
// structured dtypes, h5py's complex pair, and the reason given for every other layout.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hdf5/numpy_type.h"

namespace kerchunk::hdf5::internal {
namespace {

NumpyType Numeric(const std::string& dtype, size_t size) {
  return MakeNumericType(size, dtype, "");
}

StructuredField Field(std::string name, uint64_t offset, NumpyType type,
                      std::vector<uint64_t> dims = {}) {
  return StructuredField{std::move(name), offset, std::move(type), std::move(dims)};
}

TEST(DescribeCompound, PackedMembersInOrderAreAStructuredDtype) {
  NumpyType nested =
      DescribeCompound(3, {Field("x", 0, Numeric("<u2", 2)), Field("y", 2, MakeBoolType())});
  ASSERT_EQ(nested.type_class, TypeClass::kStructured);
  NumpyType s;
  s.type_class = TypeClass::kFixedString;
  s.dtype = "|S4";
  s.file_size = 4;
  const NumpyType t = DescribeCompound(
      4 + 24 + 4 + 3, {Field("a", 0, Numeric(">i4", 4)), Field("v", 4, Numeric("<f8", 8), {3}),
                       Field("s", 28, s), Field("n", 32, nested)});
  ASSERT_EQ(t.type_class, TypeClass::kStructured) << t.unsupported_reason;
  EXPECT_EQ(t.dtype,
            R"([["a",">i4"],["v","<f8",[3]],["s","|S4"],["n",[["x","<u2"],["y","|b1"]]]])");
  EXPECT_EQ(t.dtype_json.Dump(), t.dtype);
  EXPECT_EQ(t.file_size, 35u);
}

TEST(DescribeCompound, PaddingIsNamed) {
  EXPECT_EQ(
      DescribeCompound(8, {Field("a", 0, Numeric("|i1", 1)), Field("b", 4, Numeric("<i4", 4))})
          .unsupported_reason,
      "compound type with padding: member 'b' at byte 4, packed at 1");
  EXPECT_EQ(
      DescribeCompound(16, {Field("t", 0, Numeric("<u8", 8)), Field("v", 8, Numeric("<u2", 2))})
          .unsupported_reason,
      "compound type with padding: 10 bytes of members in 16");
  // Members listed out of offset order: numpy would lay them out in list order.
  EXPECT_EQ(
      DescribeCompound(8, {Field("b", 4, Numeric("<i4", 4)), Field("a", 0, Numeric("<i4", 4))})
          .type_class,
      TypeClass::kUnsupported);
}

TEST(DescribeCompound, MembersZarrCannotHoldAreNamed) {
  NumpyType vlen;
  vlen.type_class = TypeClass::kVlenString;
  vlen.dtype = "|O";
  vlen.file_size = 16;
  EXPECT_EQ(DescribeCompound(20, {Field("a", 0, Numeric("<i4", 4)), Field("s", 4, vlen)})
                .unsupported_reason,
            "compound type: member 's' is a variable-length string");
  EXPECT_EQ(DescribeCompound(8, {Field("r", 0, MakeUnsupportedType(8, "reference type"))})
                .unsupported_reason,
            "compound type: member 'r' is reference type");
  const NumpyType inner = DescribeCompound(4, {Field("x", 0, Numeric("<i4", 4))});
  EXPECT_EQ(DescribeCompound(8, {Field("c", 0, inner, {2})}).unsupported_reason,
            "compound type: member 'c' is an array of compounds");
  EXPECT_EQ(DescribeCompound(4, {Field("", 0, Numeric("<i4", 4))}).type_class,
            TypeClass::kUnsupported);
  EXPECT_EQ(DescribeCompound(0, {}).unsupported_reason, "compound type without members");
}

TEST(DescribeCompound, H5pyComplexPairIsComplex) {
  EXPECT_EQ(
      DescribeCompound(16, {Field("r", 0, Numeric("<f8", 8)), Field("i", 8, Numeric("<f8", 8))})
          .dtype,
      "<c16");
  EXPECT_EQ(
      DescribeCompound(8, {Field("r", 0, Numeric(">f4", 4)), Field("i", 4, Numeric(">f4", 4))})
          .dtype,
      ">c8");
  // Not h5py's convention: other names, mixed types, half floats stay structured.
  EXPECT_EQ(
      DescribeCompound(8, {Field("re", 0, Numeric("<f4", 4)), Field("im", 4, Numeric("<f4", 4))})
          .type_class,
      TypeClass::kStructured);
  EXPECT_EQ(
      DescribeCompound(12, {Field("r", 0, Numeric("<f8", 8)), Field("i", 8, Numeric("<f4", 4))})
          .type_class,
      TypeClass::kStructured);
  EXPECT_EQ(
      DescribeCompound(4, {Field("r", 0, Numeric("<f2", 2)), Field("i", 2, Numeric("<f2", 2))})
          .dtype,
      R"([["r","<f2"],["i","<f2"]])");
}

TEST(EncodeTypedFillValue, StructuredIsBase64OfTheElement) {
  const NumpyType t =
      DescribeCompound(3, {Field("a", 0, Numeric("<u2", 2)), Field("b", 2, MakeBoolType())});
  EXPECT_EQ(EncodeTypedFillValue(std::string("\x01\x02\x01", 3), t).Dump(), R"("AQIB")");
}

}  // namespace
}  // namespace kerchunk::hdf5::internal
