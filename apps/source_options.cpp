#include "source_options.h"

#include <cstdlib>

namespace kerchunk::cli {

void AddSourceOptions(CLI::App& app, io::SourceOptions& source, SourceOptionsText& text) {
  app.add_option("--header", source.headers,
                 "Send this header with every http(s) request (a token); repeatable")
      ->option_text("'NAME: VALUE'")
      ->allow_extra_args(false);
  app.add_option("--s3-endpoint", source.s3_endpoint,
                 "S3 endpoint for s3:// URLs (MinIO, Ceph, a data centre's store; default AWS); "
                 "implies path-style addressing")
      ->option_text("URL");
  app.add_option("--s3-region", text.s3_region,
                 "S3 region for the signature and the AWS endpoint (default AWS_REGION, "
                 "AWS_DEFAULT_REGION, else us-east-1)")
      ->option_text("REGION");
  app.add_flag("--s3-path-style", source.s3_path_style,
               "Address S3 objects as ENDPOINT/BUCKET/KEY rather than BUCKET.ENDPOINT/KEY");
  app.add_option("--io-timeout", source.stall_timeout_s,
                 "Seconds a remote transfer may make no progress before it is abandoned "
                 "(and retried; default 30)")
      ->check(CLI::Range(1, 3600))
      ->option_text("SECONDS");
  app.add_flag("--s3-anonymous", text.s3_anonymous,
               "Send unsigned S3 requests (public buckets), whatever credentials are set");
}

// Signed S3 requests unless --s3-anonymous: credentials as the AWS tools find them. A broken
// credentials file matters only when s3:// is read.
Status FinishSourceOptions(const SourceOptionsText& text, bool reads_s3,
                           io::SourceOptions& source) {
  source.s3_region = text.s3_region;
  if (source.s3_region.empty()) {
    for (const char* name : {"AWS_REGION", "AWS_DEFAULT_REGION"}) {
      if (const char* value = std::getenv(name); value && *value) {
        source.s3_region = value;
        break;
      }
    }
  }
  if (source.s3_region.empty()) source.s3_region = "us-east-1";
  if (text.s3_anonymous) return OkStatus();
  Result<io::S3Credentials> credentials = io::S3CredentialsFromEnvironment();
  if (credentials.ok()) {
    source.s3_credentials = *std::move(credentials);
    return OkStatus();
  }
  return reads_s3 ? credentials.status() : OkStatus();
}

}  // namespace kerchunk::cli
