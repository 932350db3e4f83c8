import { getFormProps, type SubmissionResult } from "@conform-to/react";
import * as Headless from "@headlessui/react";
import { Fragment, lazy, Suspense } from "react";
import { Form, useNavigation } from "react-router";
import { ColumnHeads, TableRegion, TD } from "#app/components/admin/table";
import { ConfirmDisclosure } from "#app/components/admin/confirm-disclosure";
import { Field } from "#app/components/ui/field";
import { HydratedField } from "#app/components/ui/hydrated-field";
import { useHydrated } from "#app/components/ui/use-hydrated";
import { useSchemaForm } from "#app/components/ui/use-schema-form";
import { fileRenameSchema } from "#app/domain/session-file-forms";
import { FILE_NAME_MAX } from "#app/domain/session-files";

/**
 * docs/product.md "Session files". Every form is a plain post; with JavaScript the upload form
 * becomes the resumable uploader, a chunk fetched only here.
 */
const SessionFileUploader = lazy(
  () => import("#app/components/admin/session-file-uploader.client"),
);

export type AdminFileRow = {
  id: number;
  name: string;
  kind: string;
  size: string;
  uploaded: string;
  delivered: string | null;
  expires: string | null;
  downloadUrl: string;
};

export type AdminFilesData = {
  bookingId: number;
  files: AdminFileRow[];
  undelivered: number;
  upload:
    | {
        allowed: true;
        url: string;
        accept: string;
        formLimit: string;
        fileLimit: string;
        maxFileBytes: number;
      }
    | { allowed: false; reason: string };
};

export type FileFormReply = {
  intent: "file-rename" | "file-delete" | "files-deliver";
  fileId: number | null;
  message: string;
  result?: SubmissionResult<string[]>;
};

/** The page's other forms answer too. */
export function isFileFormReply(answer: object): answer is FileFormReply {
  return "fileId" in answer && "intent" in answer;
}

const SMALL_BUTTON =
  "inline-flex min-h-11 cursor-pointer items-center rounded-full px-3 text-sm font-semibold ring-1 ring-line hover:bg-black/5 disabled:opacity-60";

export function SessionFilesSection({
  data,
  reply,
}: {
  data: AdminFilesData;
  reply: FileFormReply | null;
}) {
  const { bookingId, files, undelivered, upload } = data;
  return (
    <section aria-labelledby="booking-files" className="mt-8">
      <h3 id="booking-files" className="font-display text-lg font-bold">
        Files
      </h3>
      {files.length === 0 ? (
        <p className="mt-2 text-sm text-ink-soft">No files yet.</p>
      ) : (
        <div className="mt-2">
          <TableRegion label="Session files">
            <table className="w-full min-w-[52rem] bg-white">
              <ColumnHeads
                columns={["Name", "Type", "Size", "Uploaded", "Delivered", "Expires", "Actions"]}
              />
              <tbody className="divide-y divide-line">
                {files.map((file) => (
                  <tr key={file.id}>
                    <td className={`${TD} font-semibold [overflow-wrap:anywhere]`}>
                      <a href={file.downloadUrl} download className="underline">
                        {file.name}
                      </a>
                    </td>
                    <td className={TD}>{file.kind}</td>
                    <td className={`${TD} tabular-nums`}>{file.size}</td>
                    <td className={TD}>{file.uploaded}</td>
                    <td className={TD}>{file.delivered ?? "Not yet"}</td>
                    <td className={TD}>{file.expires ?? "—"}</td>
                    <td className={TD}>
                      <div className="flex flex-col gap-2">
                        {/* Keyed by the name: after a rename the field starts from the new one. */}
                        <RenameFile
                          key={file.name}
                          file={file}
                          reply={
                            reply?.intent === "file-rename" && reply.fileId === file.id
                              ? reply
                              : null
                          }
                        />
                        <DeleteFile file={file} />
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        </div>
      )}

      {files.length > 0 ? <DeliverFiles undelivered={undelivered} /> : null}

      <div className="mt-6">
        <h4 className="font-display text-base font-bold">Upload files</h4>
        {upload.allowed ? (
          <UploadFiles bookingId={bookingId} upload={upload} />
        ) : (
          <p className="mt-2 text-sm text-ink-soft">{upload.reason}</p>
        )}
      </div>
    </section>
  );
}

function RenameFile({ file, reply }: { file: AdminFileRow; reply: FileFormReply | null }) {
  const [form, fields] = useSchemaForm({
    id: `file-rename-${file.id}`,
    schema: fileRenameSchema,
    lastResult: reply?.result,
    defaultValue: { fileId: String(file.id), name: file.name },
    submitCheckedBy: "server",
  });
  const busy = useBusy("file-rename", file.id);
  return (
    <details open={reply ? true : undefined}>
      <summary className={`${SMALL_BUTTON} w-fit`}>
        Rename…<span className="sr-only"> {file.name}</span>
      </summary>
      <Form method="post" preventScrollReset {...getFormProps(form)} className="mt-2">
        <HydratedField />
        <input type="hidden" name="intent" value="file-rename" />
        <input type="hidden" name="fileId" value={file.id} />
        <Field
          label={`New name for ${file.name}`}
          meta={fields.name}
          type="text"
          maxLength={FILE_NAME_MAX}
          beside={
            <button type="submit" className={SMALL_BUTTON} disabled={busy}>
              {busy ? "Renaming…" : "Save name"}
            </button>
          }
        />
      </Form>
    </details>
  );
}

/** A disclosure: it works without JavaScript. */
function DeleteFile({ file }: { file: AdminFileRow }) {
  const busy = useBusy("file-delete", file.id);
  return (
    <ConfirmDisclosure
      summary={
        <>
          Delete…<span className="sr-only"> {file.name}</span>
        </>
      }
      summaryClassName={`${SMALL_BUTTON} w-fit text-brand-700`}
      formClassName="mt-2 space-y-2 rounded-xl bg-brand-50 p-3"
      fields={{ intent: "file-delete", fileId: file.id }}
      submit={
        <>
          {busy ? "Deleting…" : "Delete file"}
          <span className="sr-only"> {file.name}</span>
        </>
      }
      submitClassName={`${SMALL_BUTTON} bg-brand-700 text-white ring-brand-700 hover:bg-brand-600`}
      busy={busy}
    >
      The file is removed from storage for good
      {file.delivered ? ", and the client can no longer download it" : ""}.
    </ConfirmDisclosure>
  );
}

function DeliverFiles({ undelivered }: { undelivered: number }) {
  const busy = useBusy("files-deliver", null);
  if (undelivered === 0) {
    return (
      <p className="mt-3 text-sm text-ink-soft">
        Every file is delivered: the client can download them from My Sessions.
      </p>
    );
  }
  return (
    <Form method="post" preventScrollReset className="mt-3 flex flex-wrap items-center gap-3">
      <HydratedField />
      <input type="hidden" name="intent" value="files-deliver" />
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Delivering…" : "Mark files delivered"}
      </button>
      <p className="text-sm text-ink-soft">
        {undelivered === 1 ? "1 file is" : `${undelivered} files are`} not delivered yet. Delivering
        e-mails the client once that their files are ready.
      </p>
    </Form>
  );
}

function UploadFiles({
  bookingId,
  upload,
}: {
  bookingId: number;
  upload: Extract<AdminFilesData["upload"], { allowed: true }>;
}) {
  const hydrated = useHydrated();
  const inputId = `file-upload-${bookingId}`;
  const plainHint = `One file at a time, up to ${upload.formLimit}: audio, video, images, PDF, zip or text.`;
  const plain = (
    <form
      method="post"
      action={upload.url}
      encType="multipart/form-data"
      className="flex flex-wrap items-end gap-3"
    >
      <Headless.Field className="min-w-0 flex-1">
        <Headless.Label className="field-label">File to upload</Headless.Label>
        {/* This form is the page without JavaScript: the server's HTML names the hint itself. */}
        <Headless.Description id={`${inputId}-hint`} className="mt-0.5 text-sm text-ink-soft">
          {plainHint}
        </Headless.Description>
        <Headless.Input as={Fragment}>
          <input
            type="file"
            name="file"
            required
            accept={upload.accept}
            aria-describedby={`${inputId}-hint`}
            className="field-input"
          />
        </Headless.Input>
      </Headless.Field>
      <button type="submit" className="btn-primary">
        Upload
      </button>
    </form>
  );
  return (
    <div className="mt-2">
      {hydrated ? (
        <Suspense fallback={plain}>
          <SessionFileUploader
            endpoint={upload.url}
            accept={upload.accept}
            maxFileBytes={upload.maxFileBytes}
            hint={`Several files at once, each up to ${upload.fileLimit}: audio, video, images, PDF, zip or text. An upload carries on by itself if the connection drops.`}
          />
        </Suspense>
      ) : (
        plain
      )}
    </div>
  );
}

function useBusy(intent: string, fileId: number | null): boolean {
  const navigation = useNavigation();
  if (navigation.state !== "submitting") return false;
  if (navigation.formData?.get("intent") !== intent) return false;
  return fileId === null || navigation.formData?.get("fileId") === String(fileId);
}
