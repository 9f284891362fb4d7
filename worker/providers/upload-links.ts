// Where the browser PUTs a PDF. With R2 S3 credentials configured: a real R2
// presigned URL (aws4fetch). Otherwise (the local default): a Worker URL signed
// with HMAC and an expiry, whose handler streams the body into the R2 binding.
import { AwsClient } from "aws4fetch";
import { optionalSecrets } from "../config";
import { signLink } from "../lib/signed-links";

export const UPLOAD_LINK_TTL_MS = 15 * 60 * 1000;

export interface UploadLinkProvider {
  presignPut(key: string, contentType: string): Promise<string>;
}

export function uploadLinkProvider(env: Env, requestOrigin: string): UploadLinkProvider {
  const s = optionalSecrets(env);
  if (s.R2_ACCOUNT_ID && s.R2_ACCESS_KEY_ID && s.R2_SECRET_ACCESS_KEY) {
    const client = new AwsClient({
      accessKeyId: s.R2_ACCESS_KEY_ID,
      secretAccessKey: s.R2_SECRET_ACCESS_KEY,
      service: "s3",
      region: "auto",
    });
    const bucket = s.R2_BUCKET_NAME ?? "docchat-documents";
    return {
      async presignPut(key, contentType) {
        const url = new URL(`https://${s.R2_ACCOUNT_ID}.r2.cloudflarestorage.com/${bucket}/${key}`);
        url.searchParams.set("X-Amz-Expires", String(UPLOAD_LINK_TTL_MS / 1000));
        const signed = await client.sign(new Request(url, { method: "PUT", headers: { "Content-Type": contentType } }), {
          aws: { signQuery: true },
        });
        return signed.url;
      },
    };
  }
  return {
    async presignPut(key) {
      const { expires, signature } = await signLink(env.JWT_SECRET, "upload", key, UPLOAD_LINK_TTL_MS);
      const url = new URL("/api/documents/upload", requestOrigin);
      url.searchParams.set("key", key);
      url.searchParams.set("expires", expires);
      url.searchParams.set("signature", signature);
      return url.toString();
    },
  };
}
