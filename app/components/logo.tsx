/** The studio mark: a microphone capsule inside an "on air" ring. */
export function Logo({ className = "size-8" }: { className?: string }) {
  return (
    <svg aria-hidden="true" viewBox="0 0 32 32" className={className}>
      <circle cx="16" cy="16" r="15" fill="#f04a2e" />
      <circle
        cx="16"
        cy="16"
        r="11"
        fill="none"
        stroke="#fff"
        strokeOpacity=".35"
        strokeWidth="1.5"
      />
      <rect x="12.5" y="7" width="7" height="12" rx="3.5" fill="#fff" />
      <path
        d="M10 15.5a6 6 0 0 0 12 0M16 21.5V25M12.5 25h7"
        fill="none"
        stroke="#fff"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
    </svg>
  );
}
