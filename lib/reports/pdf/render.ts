import { createElement } from 'react';
import { renderToBuffer, type DocumentProps } from '@react-pdf/renderer';
import type { ReactElement } from 'react';
import type { ClientReport } from '../client-report';
import { ClientReportDocument } from './document';

/** The client report as PDF bytes (@react-pdf/renderer, pure JavaScript: a production install without Chromium works). */
export async function renderClientReportPdf(report: ClientReport): Promise<Buffer> {
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
