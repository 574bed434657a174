/**
 * The fixed ids of the demo records the contract's examples show (openapi/components and openapi/paths): the docs'
 * samples, the Prism mock and a fresh `npm start` then name the same cluster, business unit, users and mapping.
 * `test/ops/samples.test.ts` holds the two to each other.
 */
export const STORY_IDS = {
  /** The demo admin (the examples' `created_by` and the permissions example). */
  admin: '0b6c5d2e-2f4a-4c1e-9a57-3f1f8f0a2b11',
  /** editor-a (Eddie Editor), the examples' last editor. */
  editorA: '6c7d8e9f-0a1b-4c2d-9e3f-4a5b6c7d8e9f',
  /** somchai, the examples' user. */
  somchai: '2e4f6a8c-1b3d-4e5f-8a7b-9c0d1e2f3a4b',
  /** CL-A, Andaman Hotels Group. */
  clusterA: '3b0f5a52-6f0e-4d8e-9a3c-1b7e2c4d5f60',
  /** A-PKT, Andaman Phuket Beach. */
  buPkt: '5e7a9c1b-2d3f-4a5b-8c6d-7e8f9a0b1c2d',
  /** somchai's membership of CL-A. */
  somchaiInClusterA: '1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d',
  /** somchai's membership of A-PKT. */
  somchaiInBuPkt: '7f8e9d0c-1b2a-4c3d-9e4f-5a6b7c8d9e0f',
  /** somchai's grant of `cluster.update` on CL-A. */
  somchaiGrant: '5d6e7f80-91a2-4b3c-8d4e-5f6a7b8c9d0e',
  /** The default PO print mapping. */
  poMapping: '2c4e6a8b-0d1f-4a3c-9e5b-7d9f1b3d5e7a',
  /** The PO's standard print template. */
  poTemplate: '8a9b0c1d-2e3f-4a5b-9c6d-7e8f9a0b1c2d',
  /** The Thai Baht, every demo unit's currency. */
  thb: '9c1d2e3f-4a5b-4c6d-8e7f-a0b1c2d3e4f5',
} as const;
