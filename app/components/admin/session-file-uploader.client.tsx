import * as Headless from "@headlessui/react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import type { DetailedError, Upload } from "tus-js-client";
import {
  declaredType,
  fileProblem,
  shouldRetryUpload,
  UPLOAD_MESSAGES,
  uploadErrorMessage,
} from "#app/components/admin/upload-messages";
import { formatBytes, SESSION_FILE_MESSAGES, uploadedFileName } from "#app/domain/session-files";

/**
 * Sends each file with tus, so a 20 GB recording survives a dropped connection; tus-js-client is
 * imported when the first upload starts, so no other page ever loads it.
 */

/** About a minute in all. */
const RETRY_DELAYS = [0, 1_000, 3_000, 5_000, 10_000, 20_000, 30_000];

type State = "checking" | "uploading" | "retrying" | "paused" | "done" | "failed";

type Item = {
  key: string;
  name: string;
  size: number;
  sent: number;
  state: State;
  message: string | null;
};

const STATE_TEXT: Record<State, string> = {
  checking: "Starting…",
  uploading: "Uploading",
  retrying: "Connection lost, trying again…",
  paused: "Paused",
  done: "Uploaded",
  failed: "Not uploaded",
};

let tusModule: Promise<typeof import("tus-js-client")> | undefined;
const loadTus = () => {
  tusModule ??= import("tus-js-client");
  return tusModule;
};

export default function SessionFileUploader({
  endpoint,
  accept,
  maxFileBytes,
  hint,
}: {
  endpoint: string;
  accept: string;
  maxFileBytes: number;
  hint: string;
}) {
  const [items, setItems] = useState<Item[]>([]);
  const [formError, setFormError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const uploads = useRef(new Map<string, Upload>());
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const counter = useRef(0);
  const statusId = useId();

  // Leaving stops the uploads; choosing the same file again here later carries on.
  useEffect(() => {
    const running = uploads.current;
    return () => {
      for (const upload of running.values()) void upload.abort();
    };
  }, []);

  const update = (key: string, change: Partial<Item>) =>
    setItems((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item)));

  async function begin(file: File) {
    counter.current += 1;
    const key = `${counter.current}-${file.name}`;
    const name = uploadedFileName(file.name);
    const problem = fileProblem(file, maxFileBytes);
    setItems((list) => [
      ...list,
      {
        key,
        name: name || file.name,
        size: file.size,
        sent: 0,
        state: problem ? "failed" : "checking",
        message: problem,
      },
    ]);
    if (problem) return;
    let tus: typeof import("tus-js-client");
    try {
      tus = await loadTus();
    } catch {
      update(key, { state: "failed", message: UPLOAD_MESSAGES.network });
      return;
    }
    const upload = new tus.Upload(file, {
      endpoint,
      retryDelays: RETRY_DELAYS,
      // Choosing a finished file again (after deleting it) must upload it again, not "resume" it.
      removeFingerprintOnSuccess: true,
      metadata: { filename: name, filetype: declaredType(file) },
      // A refusal (space, the booking's status) is the message staff see, never retried.
      onShouldRetry: (error: DetailedError) => {
        const retry = shouldRetryUpload(
          error.originalResponse?.getStatus() ?? 0,
          error.originalRequest?.getMethod() ?? "",
        );
        if (retry) update(key, { state: "retrying" });
        return retry;
      },
      onProgress: (sent) => update(key, { sent, state: "uploading", message: null }),
      onSuccess: () => {
        uploads.current.delete(key);
        update(key, { sent: file.size, state: "done", message: null });
        setAnnouncement(`${name} uploaded.`);
        void revalidate.current();
      },
      onError: (error) => {
        const response = "originalResponse" in error ? error.originalResponse : null;
        const status = response?.getStatus() ?? 0;
        const message = uploadErrorMessage(status, response?.getBody() ?? "", maxFileBytes);
        const method = "originalRequest" in error ? error.originalRequest?.getMethod() : "";
        // A refusal would only be refused again: no Resume for it.
        if (!shouldRetryUpload(status, method ?? "")) uploads.current.delete(key);
        update(key, { state: "failed", message });
        setAnnouncement(`${name}: ${message}`);
      },
    });
    uploads.current.set(key, upload);
    try {
      const [previous] = await upload.findPreviousUploads();
      if (previous) upload.resumeFromPreviousUpload(previous);
    } catch {}
    update(key, { state: "uploading" });
    upload.start();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = event.currentTarget.elements.namedItem("file");
    const files = input instanceof HTMLInputElement ? [...(input.files ?? [])] : [];
    if (files.length === 0) {
      setFormError(SESSION_FILE_MESSAGES.noFileChosen);
      return;
    }
    setFormError(null);
    for (const file of files) void begin(file);
    event.currentTarget.reset();
  }

  async function pause(key: string) {
    const upload = uploads.current.get(key);
    if (!upload) return;
    update(key, { state: "paused" });
    await upload.abort();
  }

  function resume(key: string) {
    const upload = uploads.current.get(key);
    if (!upload) return;
    update(key, { state: "uploading", message: null });
    upload.start();
  }

  return (
    <div>
      <form
        method="post"
        action={endpoint}
        encType="multipart/form-data"
        noValidate
        onSubmit={submit}
        className="flex flex-wrap items-end gap-3"
      >
        <Headless.Field className="min-w-0 flex-1">
          <Headless.Label className="field-label">Files to upload</Headless.Label>
          <Headless.Description className="mt-0.5 text-sm text-ink-soft">
            {hint}
          </Headless.Description>
          <Headless.Input
            type="file"
            name="file"
            multiple
            accept={accept}
            invalid={formError !== null}
            onChange={() => setFormError(null)}
            className="field-input"
          />
          {formError ? (
            <Headless.Description className="mt-1 text-sm font-semibold text-brand-700">
              {formError}
            </Headless.Description>
          ) : null}
        </Headless.Field>
        <button type="submit" className="btn-primary">
          Upload
        </button>
      </form>

      <p id={statusId} role="status" className="sr-only">
        {announcement}
      </p>

      {items.length > 0 ? (
        <ul aria-label="Uploads" className="mt-4 space-y-3">
          {items.map((item) => (
            <UploadRow
              key={item.key}
              item={item}
              onPause={() => void pause(item.key)}
              onResume={() => resume(item.key)}
              canResume={uploads.current.has(item.key)}
            />
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function UploadRow({
  item,
  onPause,
  onResume,
  canResume,
}: {
  item: Item;
  onPause: () => void;
  onResume: () => void;
  canResume: boolean;
}) {
  const percent = item.size > 0 ? Math.floor((item.sent / item.size) * 100) : 0;
  const text = `${percent}% (${formatBytes(item.sent)} of ${formatBytes(item.size)})`;
  const active = item.state === "uploading" || item.state === "retrying";
  const progressId = useId();
  return (
    <li className="rounded-xl p-3 ring-1 ring-line">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0 font-semibold [overflow-wrap:anywhere]">{item.name}</span>
        <span className="text-sm text-ink-soft">{STATE_TEXT[item.state]}</span>
      </div>
      {item.message === null || item.sent > 0 ? (
        <div className="mt-2 flex items-center gap-3">
          <progress
            id={progressId}
            max={item.size}
            value={item.sent}
            aria-label={`Upload of ${item.name}`}
            aria-valuetext={text}
            className="h-2 min-w-0 flex-1"
          >
            {text}
          </progress>
          <span className="text-sm tabular-nums">{text}</span>
        </div>
      ) : null}
      {item.message ? (
        <p className="mt-2 text-sm font-semibold text-brand-700">{item.message}</p>
      ) : null}
      {active ? (
        <button
          type="button"
          onClick={onPause}
          className="mt-2 inline-flex min-h-11 items-center rounded-full px-3 text-sm font-semibold ring-1 ring-line hover:bg-black/5"
        >
          Pause<span className="sr-only"> upload of {item.name}</span>
        </button>
      ) : null}
      {(item.state === "paused" || item.state === "failed") && canResume ? (
        <button
          type="button"
          onClick={onResume}
          className="mt-2 inline-flex min-h-11 items-center rounded-full px-3 text-sm font-semibold ring-1 ring-line hover:bg-black/5"
        >
          Resume<span className="sr-only"> upload of {item.name}</span>
        </button>
      ) : null}
    </li>
  );
}
