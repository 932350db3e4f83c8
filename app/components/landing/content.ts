import type { IconName } from "#app/components/landing/icons";
import { RATES } from "#app/components/landing/studio";

/** Copy changes never touch layout code. Figures follow docs/product.md "Constants", "Price". */
export const PARTNERS = [
  {
    name: "Atlanta Entrepreneur Innovation Center",
    href: "https://example.org/innovation-center",
    initials: "AEIC",
    linkLabel: "Visit the Innovation Center",
    role: "Studio operator",
    text: "The innovation centre runs the studio for its members and Atlanta's wider business community. Stakeholders of the centre book at the lower rate.",
  },
  {
    name: "Peach State Media",
    href: "https://example.org/media-partner",
    initials: "PSM",
    linkLabel: "Visit Peach State Media",
    role: "Media partner",
    text: "Our media partner equips the room, trains the in-house engineers and offers post-production for shows that want a finished, published episode.",
  },
] as const;

export const FEATURES: { icon: IconName; title: string; text: string; items: string[] }[] = [
  {
    icon: "mic",
    title: "Professional-Grade Equipment",
    text: "A treated room that sounds great on the first take.",
    items: [
      "Broadcast dynamic microphones for up to 4 voices",
      "Three 4K cameras with multi-angle recording",
      "Key, fill and back lighting, ready to go",
      "Acoustically treated, sound-isolated room",
      "Closed-back headphones for every guest",
    ],
  },
  {
    icon: "calendar",
    title: "Flexible Booking & Scheduling",
    text: "Record when your guests are free, even at midnight.",
    items: [
      "Open 24/7, weekends and late nights included",
      "Sessions from 2 to 8 hours, starting on the hour",
      "Book online at least 48 hours ahead",
      "Reschedule up to 24 hours before your session",
      "Retainer package for regular shows",
    ],
  },
  {
    icon: "headphones",
    title: "Expert Production Support",
    text: "You focus on the conversation; we watch the levels.",
    items: [
      "An in-house engineer at every session",
      "Set-up, sound check and live monitoring",
      "Multi-track audio and video files to take home",
      "Optional editing and social clips",
      "Friendly guidance for first-time podcasters",
    ],
  },
];

export const AUDIENCES: { icon: IconName; title: string; text: string }[] = [
  {
    icon: "briefcase",
    title: "Entrepreneurs & Business Leaders",
    text: "Launch a company podcast, record investor updates or turn your expertise into video that builds trust with customers.",
  },
  {
    icon: "waveform",
    title: "Podcasters & Content Creators",
    text: "Move from the closet mic to a real studio. Consistent sound and multi-camera video for every episode and every clip.",
  },
  {
    icon: "graduation",
    title: "Educators & Thought Leaders",
    text: "Record courses, lectures and keynote-style talks with clean audio and lighting that keeps learners watching.",
  },
  {
    icon: "community",
    title: "Community Leaders & Nonprofits",
    text: "Tell your community's stories, share impact videos with donors and give local voices a professional stage.",
  },
];

export const FAQS: { question: string; answer: string }[] = [
  {
    question: "How much does a studio session cost?",
    answer: `Stakeholders of the Atlanta Entrepreneur Innovation Center pay $${RATES.stakeholder} per hour; everyone else pays $${RATES.nonMember} per hour. Optional add-on services, such as editing, are priced separately and shown before you pay.`,
  },
  {
    question: "How long can I book the studio for?",
    answer:
      "Each booking is 2 to 8 hours, in whole hours, with start times on the hour. The minimum is 2 hours so there is time to set up, record and wrap up without rushing.",
  },
  {
    question: "How far in advance do I need to book?",
    answer:
      "At least 48 hours before your session starts. That gives our engineer time to prepare the room for your format and number of guests.",
  },
  {
    question: "What happens if I need to cancel or reschedule?",
    answer:
      "Cancel or reschedule at least 24 hours before your session and you get a full refund. Closer to the start, a cancellation fee applies; you see the exact refund before you confirm.",
  },
  {
    question: "When is the studio open?",
    answer:
      "The studio is open 24/7, weekends and holidays included, and a session may run past midnight. Book the hours that suit you and your guests.",
  },
  {
    question: "Will someone help me with the recording?",
    answer:
      "Yes. An in-house engineer comes with every session: they set up microphones, cameras and lights, run the sound check and monitor the recording, so you can focus on your conversation.",
  },
  {
    question: "Can I bring my own equipment?",
    answer:
      "No, personal recording equipment is not allowed in the studio. Everything you need is provided and already tuned to the room. Bring your notes and your guests.",
  },
  {
    question: "How many guests can join a session?",
    answer:
      "Up to 4 people including the host. Each person gets their own microphone and headphones.",
  },
  {
    question: "What is the retainer package?",
    answer:
      "For $999 you get 8 studio hours to use within 30 days: room for up to 4 episodes, editing, 1 social clip per episode, priority booking and flexible scheduling. At the non-member rate that is over $600 of savings a month.",
  },
  {
    question: "Do I need an account to book?",
    answer:
      "Yes. Sign in or create a free account, choose your date, time and hours, and pay by card. Full payment confirms your booking, and your sessions are listed in your dashboard.",
  },
];

export const BOOKING_GUIDELINES = [
  "Full payment is required to confirm your booking.",
  "Cancel at least 24 hours ahead for a full refund.",
];

export const STUDIO_RULES: { icon: IconName; text: string }[] = [
  { icon: "clock", text: "The studio is open 24/7." },
  { icon: "calendar", text: "Bookings need 48 hours' advance notice." },
  { icon: "waveform", text: "The minimum booking is 2 hours." },
  { icon: "shield", text: "Your own equipment is not allowed." },
  { icon: "headphones", text: "An in-house engineer comes with every session." },
  {
    icon: "info",
    text: "Cancelling or rescheduling needs at least 24 hours' notice; otherwise a cancellation fee applies.",
  },
];

export const RETAINER = {
  price: 999,
  period: "30-day period",
  perks: [
    "8 studio hours",
    "Up to 4 episodes",
    "1 social clip per episode",
    "Editing included",
    "Priority booking",
    "Flexible scheduling",
  ],
  savings: "Over $600 in monthly savings",
} as const;
