import PDFDocument from "pdfkit";
import type { EmailAttachment } from "#app/domain/outbox";
import { type ReceiptDetails, receiptFilename, receiptTitle } from "#app/domain/receipts";

/** The same snapshot always gives the same bytes: the creation date is the issue time. */
export function receiptPdf(details: ReceiptDetails): Buffer {
  const title = receiptTitle(details.kind);
  const issued = new Date(details.issuedAt);
  const doc = new PDFDocument({
    size: "LETTER",
    margin: 56,
    info: {
      Title: `${title} ${details.number}`,
      Author: details.studio.name,
      CreationDate: issued,
      ModDate: issued,
    },
  });
  draw(doc, details, title);
  doc.end();
  // Read out at once, so an e-mail can carry it from inside the payment's transaction.
  const chunks: Buffer[] = [];
  for (let chunk = doc.read(); chunk !== null; chunk = doc.read()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function receiptAttachment(details: ReceiptDetails): EmailAttachment {
  return {
    filename: receiptFilename(details.kind, details.number),
    contentType: "application/pdf",
    content: receiptPdf(details).toString("base64"),
  };
}

const GREY = "#555555";
const RIGHT_COLUMN = 400;

function draw(doc: PDFKit.PDFDocument, details: ReceiptDetails, title: string) {
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const left = doc.page.margins.left;

  doc.font("Helvetica-Bold").fontSize(20).text(details.studio.name);
  doc.font("Helvetica").fontSize(10).fillColor(GREY);
  doc.text(details.studio.street);
  doc.text(details.studio.locality);
  doc.text(`${details.studio.email} · ${details.studio.phone}`);
  doc.fillColor("black").moveDown(1.5);

  doc.font("Helvetica-Bold").fontSize(16).text(`${title} ${details.number}`);
  doc.font("Helvetica").fontSize(10);
  doc.text(
    `${details.kind === "CREDIT_NOTE" ? "Refund date" : "Payment date"}: ${details.payment.date}`,
  );
  if (details.refundOf) {
    const of = details.refundOf.receiptNumber
      ? `receipt ${details.refundOf.receiptNumber} for booking #${details.refundOf.bookingId}`
      : `booking #${details.refundOf.bookingId}`;
    doc.text(`Refunds ${of}`);
  }
  doc.moveDown();

  heading(doc, "Billed to");
  doc.text(details.customer.name);
  if (details.customer.business) doc.text(details.customer.business);
  doc.text(details.customer.email);
  doc.moveDown();

  heading(doc, `Booking #${details.booking.id}`);
  doc.text(`${details.booking.date}, ${details.booking.time} (${details.booking.hours})`);
  doc.moveDown(0.5);
  for (const line of details.booking.lines) row(doc, line.label, line.amount, left, width);
  doc
    .moveTo(left, doc.y)
    .lineTo(left + width, doc.y)
    .strokeColor("#999999")
    .stroke();
  doc.moveDown(0.3);
  doc.font("Helvetica-Bold");
  row(doc, "Booking total", details.booking.total, left, width);
  doc.font("Helvetica");
  if (details.booking.retainerHoursDrawn > 0) {
    doc.moveDown(0.3);
    doc.text(`Retainer hours used for this session: ${details.booking.retainerHoursDrawn}`, left);
  }
  doc.moveDown();

  heading(doc, details.kind === "CREDIT_NOTE" ? "Refunded" : "Paid");
  doc.font("Helvetica-Bold");
  row(
    doc,
    details.kind === "CREDIT_NOTE" ? "Amount refunded" : "Amount paid",
    details.payment.amount,
    left,
    width,
  );
  doc.font("Helvetica");
  if (details.payment.feeKept) {
    row(doc, "Cancellation fee kept", details.payment.feeKept, left, width);
  }
  row(
    doc,
    details.kind === "CREDIT_NOTE" ? "Refunded to" : "Method",
    details.payment.method,
    left,
    width,
  );
  doc.moveDown(2);
  doc.fillColor(GREY).fontSize(9);
  doc.text(`Thank you for recording with ${details.studio.name}.`, left);
}

function heading(doc: PDFKit.PDFDocument, text: string) {
  doc.font("Helvetica-Bold").fontSize(11).text(text);
  doc.font("Helvetica").fontSize(10);
}

function row(doc: PDFKit.PDFDocument, label: string, figure: string, left: number, width: number) {
  const y = doc.y;
  doc.text(label, left, y, { width: RIGHT_COLUMN - left - 8 });
  const after = doc.y;
  doc.text(figure, RIGHT_COLUMN, y, { width: left + width - RIGHT_COLUMN, align: "right" });
  doc.x = left;
  doc.y = Math.max(after, doc.y);
}
