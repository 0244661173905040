// The table libhdf5 is called through (src/hdf5/h5_api_table.h): in a program linked with
// libhdf5, as the tests are for their oracles, the table's calls and ids must be that library's,
// not a second copy's: an id from one copy means nothing to the other.
#include <gtest/gtest.h>
#include <hdf5.h>

#include "hdf5/h5_api_table.h"

namespace kerchunk::hdf5 {
namespace {

TEST(H5ApiTest, LoadsTheLibraryThisProgramIsLinkedWith) {
  ASSERT_TRUE(LoadLibrary().ok()) << LoadLibrary().message();
  const H5Api& api = Api();
  // The ids are set by H5open, through the table here, and read directly.
  ASSERT_GE(api.H5open(), 0);
  EXPECT_EQ(api.H5T_NATIVE_DOUBLE_g, &H5T_NATIVE_DOUBLE_g);
  EXPECT_EQ(*api.H5T_NATIVE_DOUBLE_g, H5T_NATIVE_DOUBLE);
  EXPECT_EQ(*api.H5P_CLS_FILE_ACCESS_ID_g, H5P_FILE_ACCESS);
  // An id made through the table is one the library this program calls directly knows.
  const hid_t copy = api.H5Tcopy(*api.H5T_STD_I32LE_g);
  ASSERT_GE(copy, 0);
  EXPECT_GT(H5Tequal(copy, H5T_STD_I32LE), 0);
  EXPECT_EQ(H5Tget_size(copy), 4u);
  EXPECT_GE(api.H5Tclose(copy), 0);
}

}  // namespace
}  // namespace kerchunk::hdf5
