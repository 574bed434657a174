import busboy from 'busboy';
import type { RequestHandler } from 'express';
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../core/errors.js';
import { checkImage, MAX_UPLOAD_BYTES, unsafeFilename, type UploadedFile } from '../core/image-check.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      upload?: UploadedFile;
    }
  }
}

const tooLarge = (maxBytes: number) =>
  `The file is larger than ${(maxBytes / 1024 / 1024).toLocaleString('en', { maximumFractionDigits: 1 })} MB (${maxBytes.toLocaleString('en')} bytes)`;

/**
 * Parses multipart/form-data with busboy before the contract validator (which runs with fileUploader:false):
 * at most one file of `maxBytes`; the file lands in `req.upload` and `req.body[<field>] = ''` so a `required`
 * file field validates. The whole body is drained before an error is reported, so clients see the problem
 * response instead of a reset connection. Non-multipart requests pass through untouched.
 */
export function multipartUpload(opts: { maxBytes?: number } = {}): RequestHandler {
  const maxBytes = opts.maxBytes ?? MAX_UPLOAD_BYTES;
  return (req, _res, next) => {
    if (!req.is('multipart/form-data')) return next();
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        preservePath: true,
        limits: { files: 1, fileSize: maxBytes + 1, fields: 20, fieldSize: 64 * 1024, parts: 25 },
      });
    } catch {
      return next(new BadRequestError('The multipart body is malformed (missing boundary?)'));
    }
    const body: Record<string, unknown> = {};
    let failure: Error | null = null;
    let file: UploadedFile | undefined;
    let pending: Promise<void> = Promise.resolve();

    bb.on('field', (name, value) => {
      if (name !== '__proto__' && name !== 'constructor' && name !== 'prototype') body[name] = value;
    });
    bb.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      let size = 0;
      pending = new Promise<void>((resolve) => {
        stream.on('data', (c: Buffer) => {
          size += c.length;
          if (!failure) chunks.push(c);
        });
        stream.on('limit', () => {
          failure ??= new PayloadTooLargeError(tooLarge(maxBytes));
        });
        stream.on('close', () => {
          // busboy cuts at its limit; a file of exactly maxBytes is fine, one byte more is not.
          if (size > maxBytes) failure ??= new PayloadTooLargeError(tooLarge(maxBytes));
          resolve();
        });
        stream.on('error', resolve);
      });
      // Never rejects (a stream error resolves it too), and finish() waits for it before answering.
      void pending.then(() => {
        if (!failure)
          file = {
            field,
            filename: info.filename ?? '',
            declaredType: info.mimeType,
            buffer: Buffer.concat(chunks),
            size,
          };
      });
    });
    bb.on('filesLimit', () => {
      failure ??= new BadRequestError('Only one file may be uploaded per request');
    });
    bb.on('partsLimit', () => {
      failure ??= new BadRequestError('Too many parts in the multipart body');
    });
    bb.on('fieldsLimit', () => {
      failure ??= new BadRequestError('Too many fields in the multipart body');
    });
    bb.on('error', () => {
      failure ??= new BadRequestError('The multipart body is malformed');
      req.unpipe(bb);
      req.resume();
      finish();
    });
    let done = false;
    // Answer only once the whole request has been read: a reply sent while the client is still writing makes Node
    // close the connection, and a client that reuses it (a keep-alive proxy) fails its next request with EPIPE.
    const requestRead = new Promise<void>((resolve) => {
      if (req.complete) return resolve();
      req.once('end', () => resolve());
      req.once('close', () => resolve());
    });
    const finish = () => {
      if (done) return;
      done = true;
      req.resume();
      void Promise.all([pending, requestRead]).then(() => {
        if (failure) return next(failure);
        if (file) {
          req.upload = file;
          body[file.field] = '';
        }
        req.body = body;
        next();
      });
    };
    bb.on('close', finish);
    req.pipe(bb);
  };
}

/**
 * An upload is checked before any handler sees it: a file name that carries a path → 400. An image operation's file
 * that is not one well-formed JPEG, PNG or WebP of sane dimensions (truncated, polyglot, markup in its metadata,
 * decompression-bomb header) → 415, and a refused file is never stored. A CSV upload (the membership import) is never
 * stored either; its service reads it and names the line of any problem.
 */
export function checkUpload(): RequestHandler {
  return (req, _res, next) => {
    const file = req.upload;
    if (!file) return next();
    const badName = unsafeFilename(file.filename);
    if (badName)
      return next(
        new BadRequestError(`The upload is refused: ${badName}`, [{ path: `/body/${file.field}`, message: badName }]),
      );
    if (req.operation?.upload !== 'image') return next();
    const image = checkImage(file.buffer);
    if (!image.ok)
      return next(
        new UnsupportedMediaTypeError(`The file is not a well-formed JPEG, PNG or WebP image: ${image.reason}`),
      );
    next();
  };
}
