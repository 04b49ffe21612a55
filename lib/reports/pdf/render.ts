import { createElement } from 'react';
import type { DocumentProps } from '@react-pdf/renderer';
import type { ReactElement } from 'react';
import type { ClientReport } from '../client-report';
import { clientReportDocument } from './document';
import { registerPdfFont } from './fonts';

// @react-pdf/renderer is ESM whose own imports name subpaths exported for `import` only; a static import compiled to
// require() (tsx running `npm run worker`, the seed, the tests) failed to resolve them (ERR_PACKAGE_PATH_NOT_EXPORTED)
// and took every process that loads the jobs registry down with it. Loaded once, by import(), where a PDF is made.
let loaded:
  | Promise<{
      renderToBuffer: typeof import('@react-pdf/renderer').renderToBuffer;
      document: ReturnType<typeof clientReportDocument>;
    }>
  | undefined;
const loadRenderer = () =>
  (loaded ??= import('@react-pdf/renderer').then(
    (pdf) => ({ renderToBuffer: pdf.renderToBuffer, document: clientReportDocument(pdf, registerPdfFont(pdf.Font)) }),
    (error: unknown) => {
      loaded = undefined; // a failed load is tried again by the next report, not remembered
      throw error;
    },
  ));

/** The client report as PDF bytes (@react-pdf/renderer, pure JavaScript: a production install without Chromium works). */
export async function renderClientReportPdf(report: ClientReport): Promise<Buffer> {
  const { renderToBuffer, document: ClientReportDocument } = await loadRenderer();
  const document = createElement(ClientReportDocument, { report }) as unknown as ReactElement<DocumentProps>;
  return renderToBuffer(document);
}

/** The file name people get: the workspace's name and the period. */
export function clientReportFileName(report: ClientReport): string {
  const name =
    report.publication.workspace.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'workspace';
  return `${name}-report-${report.fromDay}-to-${report.toDay}.pdf`;
}
