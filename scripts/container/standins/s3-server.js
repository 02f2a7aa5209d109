// The minio/minio image's interface, as compose.yaml uses it: `server DIR` serves S3 on
// port 9000 from DIR, with MINIO_ROOT_USER / MINIO_ROOT_PASSWORD as its access key pair.

const S3rver = require("s3rver");
const AWSAccount = require("s3rver/lib/models/account");

const [command, directory = "/data"] = process.argv.slice(2);
if (command !== "server") {
  console.error(`usage: server DIR (got ${process.argv.slice(2).join(" ")})`);
  process.exit(2);
}
const user = process.env.MINIO_ROOT_USER;
const password = process.env.MINIO_ROOT_PASSWORD;
if (user && password) AWSAccount.DUMMY_ACCOUNT.createKeyPair(user, password);

// Path-style only: other containers reach it by a host name (s3), not a bucket.
const server = new S3rver({ address: "0.0.0.0", port: 9000, directory, silent: true, vhostBuckets: false });
server.run().then(
  () => console.log(`s3rver serving ${directory} on :9000`),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => server.close().then(() => process.exit(0)));
