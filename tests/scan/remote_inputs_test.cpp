#include "kerchunk/scan/remote_inputs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kerchunk {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(RemoteInputs, NetcdfAndHdf5NamesAreKeptByASuffixInAnyCase) {
  for (const char* key :
       {"a.nc", "dir/b.NC4", "c.h5", "d.hdf5", "e.he5", "f.hdf", "g.cdf", "h.nc3", "i.netcdf"}) {
    EXPECT_TRUE(HasNetcdfOrHdf5Suffix(key)) << key;
  }
  for (const char* key : {"README.txt", "a.nc.md5", "dir.nc/readme", "nc", "a.zarr/.zarray"}) {
    EXPECT_FALSE(HasNetcdfOrHdf5Suffix(key)) << key;
  }
}

TEST(RemoteInputs, UrlsAndObjectsAreTakenAsTheyAreWithoutTheNetwork) {
  // An unreachable endpoint: nothing may be asked of it for these.
  io::SourceOptions options;
  options.s3_endpoint = "http://127.0.0.1:1";
  EXPECT_THAT(*ExpandRemoteInput("https://host/a b.nc", options),
              ElementsAre("https://host/a b.nc"));
  EXPECT_THAT(*ExpandRemoteInput("http://host/x.nc?token=1", options),
              ElementsAre("http://host/x.nc?token=1"));
  EXPECT_THAT(*ExpandRemoteInput("s3://bucket/dir/x.nc", options),
              ElementsAre("s3://bucket/dir/x.nc"));
}

TEST(RemoteInputs, HttpPatternsAreRefusedAndListingErrorsNameThePrefix) {
  auto pattern = ExpandRemoteInput("https://host/dir/*.nc", {});
  EXPECT_EQ(pattern.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(pattern.status().message(), HasSubstr("https://host/dir/*.nc"));
  io::SourceOptions options;
  options.s3_endpoint = "http://127.0.0.1:1";
  auto listing = ExpandRemoteInput("s3://bucket/dir/", options);
  EXPECT_FALSE(listing.ok());
  EXPECT_THAT(listing.status().message(), HasSubstr("s3://bucket/dir/"));
}

}  // namespace
}  // namespace kerchunk
