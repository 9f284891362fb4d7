import type { User } from "../state/user";

export interface AuthResponse {
  status: "success";
  user: User;
  token: string;
}

export interface StatusMessage {
  status: string;
  message: string;
}
