// Names of seats as a screen shows them: players never see a seat number.

/** "You", or the seat's name from the snapshot ("Host", "Friend", "Easy bot 2"). */
export function seatLabel(msg, seat) {
  if (seat === null || seat === undefined) return "";
  if (msg.seat === seat) return "You";
  const info = (msg.seats || [])[seat];
  return (info && info.name) || "Another player";
}

/** "a", "a and b", "a, b and c". */
export function listing(words) {
  return words.length <= 1 ? words.join("")
    : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}
